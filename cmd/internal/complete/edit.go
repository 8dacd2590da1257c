package complete

// WithChoices sets the fixed words of the value of the option named long
// (or short) in flags; it panics if there is none, so that a renamed
// option fails the tests rather than losing its completion.
func WithChoices(flags []Flag, name string, words ...string) {
	find(flags, name).Choices = words
}

// WithFiles marks the options named as taking a file name.
func WithFiles(flags []Flag, names ...string) {
	for _, n := range names {
		find(flags, n).Files = true
	}
}

// WithDesc sets each option's Desc from describe, keyed by its long name,
// or its short one when it has no long one; an option describe lacks
// keeps the Desc it has.
func WithDesc(flags []Flag, describe map[string]string) {
	for i := range flags {
		key := flags[i].Long
		if key == "" {
			key = flags[i].Short
		}
		if d, ok := describe[key]; ok {
			flags[i].Desc = d
		}
	}
}

func find(flags []Flag, name string) *Flag {
	for i := range flags {
		if flags[i].Long == name || flags[i].Short == name {
			return &flags[i]
		}
	}
	panic("complete: no option " + name)
}
