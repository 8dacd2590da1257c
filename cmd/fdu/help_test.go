package main

import "testing"

func TestHelpOptions(t *testing.T) {
	got := map[string]helpOption{}
	for _, o := range helpOptions(usageText) {
		key := o.long
		if key == "" {
			key = o.short
		}
		if _, ok := got[key]; !ok {
			got[key] = o
		}
	}
	for _, want := range []helpOption{
		{"0", "null", "end each output line with NUL, not newline"},
		{"", "apparent-size", "print apparent sizes rather than device usage"},
		{"B", "block-size", "scale sizes by SIZE before printing them"},
		{"H", "", "equivalent to --dereference-args (-D)"},
		{"D", "dereference-args", "dereference only symlinks that are listed on the command line"},
		{"", "time", "show time of the last modification of any file in the directory, or any of its subdirectories"},
		{"", "version", "output version information and exit"},
	} {
		key := want.long
		if key == "" {
			key = want.short
		}
		if got[key] != want {
			t.Errorf("%s: got %+v, want %+v", key, got[key], want)
		}
	}
}
