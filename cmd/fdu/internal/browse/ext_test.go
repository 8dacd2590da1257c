package browse

import "testing"

func TestModeString(t *testing.T) {
	for m, want := range map[uint32]string{
		0o100644: "-rw-r--r--", 0o040755: "drwxr-xr-x", 0o120777: "lrwxrwxrwx", 0o104755: "-rwsr-xr-x",
		0o102644: "-rw-r-Sr--", 0o041777: "drwxrwxrwt", 0o041776: "drwxrwxrwT", 0o010600: "prw-------",
		0o020620: "crw--w----", 0o060660: "brw-rw----", 0o140755: "srwxr-xr-x", 0o644: "?rw-r--r--",
	} {
		if got := modeString(m); got != want {
			t.Errorf("%o: %s, want %s", m, got, want)
		}
	}
}
