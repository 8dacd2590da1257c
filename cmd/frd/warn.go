package main

import (
	"fmt"
	"io"

	"github.com/pbednarcik/flexreaddir/cmd/internal/termtext"
)

// warn prints a message on stderr, after who says it ("frd clone"): an
// error, whose paths are names another user may have chosen, is escaped
// so that none can act on the terminal.
func warn(stderr io.Writer, who string, msg any) {
	fmt.Fprintf(stderr, "%s: %s\n", who, termtext.Escape(fmt.Sprint(msg)))
}
