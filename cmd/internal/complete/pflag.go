package complete

import "github.com/spf13/pflag"

// FromPFlag is fs's options in the order they were defined (with
// fs.SortFlags false). A hidden flag's long name is not offered, its
// shorthand is: it stands for a short-only option. A flag's Usage is its
// Desc.
func FromPFlag(fs *pflag.FlagSet) []Flag {
	var flags []Flag
	fs.VisitAll(func(f *pflag.Flag) {
		fl := Flag{Long: f.Name, Short: f.Shorthand, Desc: f.Usage}
		if f.Hidden {
			if fl.Short == "" {
				return
			}
			fl.Long = ""
		}
		switch t := f.Value.Type(); {
		case t == "bool" || f.NoOptDefVal == "true":
			fl.Arg = NoArg
		case f.NoOptDefVal != "":
			fl.Arg = OptionalArg
		default:
			fl.Arg = RequiredArg
			fl.Repeats = t == "stringArray" || t == "stringSlice"
		}
		flags = append(flags, fl)
	})
	return flags
}
