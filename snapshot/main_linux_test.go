package snapshot

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
)

// helperEnv, set to "take\x1fDIR\x1fFILE" or "compare\x1fFILE\x1fDIR",
// makes the test binary snapshot or compare and exit, as a helper run as
// another user (testfs.RunAsNobody).
const helperEnv = "FRD_SNAPSHOT_HELPER"

func TestMain(m *testing.M) {
	if v := os.Getenv(helperEnv); v != "" {
		os.Exit(helper(strings.Split(v, "\x1f")))
	}
	os.Exit(m.Run())
}

// helper prints what it did: the error of a snapshot, or each change of a
// compare as a line; it exits 0, or 1 on an error.
func helper(args []string) int {
	switch args[0] {
	case "take":
		if err := WriteFile(context.Background(), args[1], args[2], nil); err != nil {
			fmt.Println("error:", err)
		}
		return 0
	case "compare":
		f, err := os.Open(args[1])
		if err != nil {
			fmt.Println("error:", err)
			return 1
		}
		defer f.Close()
		err = Compare(context.Background(), f, args[2], nil, func(c *Change) error {
			fmt.Println(line(c))
			return nil
		})
		if err != nil {
			fmt.Println("error:", err)
			return 1
		}
		return 0
	}
	return 1
}
