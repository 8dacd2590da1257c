// Command probe links the three libSystem functions, for TestImports to
// inspect; it is built for darwin and never run here.
package main

import (
	"fmt"
	"os"

	"github.com/pbednarcik/flexreaddir/internal/libsystem"
)

func main() {
	buf := make([]byte, 4096)
	var base int64
	n, err := libsystem.Getdirentries64(0, buf, &base)
	m, err2 := libsystem.Getattrlistbulk(0, nil, buf, 0)
	err3 := libsystem.Fgetattrlist(0, nil, buf, 0)
	fmt.Fprintln(os.Stderr, n, err, m, err2, err3)
}
