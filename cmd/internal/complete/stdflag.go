package complete

import "flag"

// FromFlag is fs's options, in the order of their names. Go's flag package
// takes -name and --name alike; a one-letter name is Short, a longer one
// Long, as the commands' usage texts write them (-j N, --json).
func FromFlag(fs *flag.FlagSet) []Flag {
	var flags []Flag
	fs.VisitAll(func(f *flag.Flag) {
		fl := Flag{Long: f.Name, Desc: f.Usage, Arg: RequiredArg}
		if len(f.Name) == 1 {
			fl.Long, fl.Short = "", f.Name
		}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			fl.Arg = NoArg
		}
		flags = append(flags, fl)
	})
	return flags
}
