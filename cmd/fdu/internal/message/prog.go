package message

import (
	"path/filepath"
	"strings"
)

// Prog is what fdu calls itself before its messages: argv[0] as it was
// run, as coreutils' set_program_name keeps it ("/usr/bin/du: cannot
// access"), so that a link named du says "du:". Tests, which run in
// process, keep "fdu".
var Prog = "fdu"

// SetProg sets Prog to argv0, unless it is a test binary's.
func SetProg(argv0 string) {
	if argv0 != "" && !strings.HasSuffix(filepath.Base(argv0), ".test") {
		Prog = argv0
	}
}
