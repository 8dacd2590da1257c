package browse

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"sync"
	"syscall"

	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/dutree"
)

// deleting stops the deletion running, if any: the signal handler's way
// in, as the deletion runs on the browser's goroutine.
var (
	deletingMu sync.Mutex
	deleting   context.CancelCauseFunc
)

// signalled is the cause a deletion is stopped with by StopDeletion.
type signalled struct{ sig os.Signal }

func (s *signalled) Error() string { return signalName(s.sig) + " received" }

// StopDeletion stops the deletion running, if any, at its next entry, and
// reports whether there was one: Run then returns an *Interrupted, for the
// caller to restore the terminal, say what was deleted and exit. Without
// one, the signal is the caller's to handle.
func StopDeletion(sig os.Signal) bool {
	deletingMu.Lock()
	defer deletingMu.Unlock()
	if deleting == nil {
		return false
	}
	deleting(&signalled{sig})
	return true
}

// deleteStoppable is t.Delete, stoppable by StopDeletion: sig is the
// signal that stopped it, nil if none came before it returned.
func deleteStoppable(t *dutree.Tree, names []string, name string) (sig os.Signal, err error) {
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	deletingMu.Lock()
	deleting = cancel
	deletingMu.Unlock()
	err = t.Delete(ctx, names, name)
	deletingMu.Lock()
	deleting = nil
	deletingMu.Unlock()
	// A signal after the deletion's last check but before this is still
	// one during the deletion: the caller exits all the same.
	var s *signalled
	if errors.As(context.Cause(ctx), &s) {
		return s.sig, err
	}
	return nil, err
}

// Interrupted is Run's error when a signal came during a deletion: the
// deletion stopped at its next entry and the browser ended.
type Interrupted struct {
	Signal os.Signal
	Path   string // the entry being deleted
	// Err is the deletion's: a *dutree.StoppedError, nil when it ended
	// before it saw the signal, or a refusal.
	Err    error
	format func(int64) string
}

// Error says what the deletion did, for the terminal once restored, the
// path escaped as the screen shows it: "SIGTERM during the deletion of
// /x/big: 12,700 files and 3 directories deleted (52 MiB); not deleted:
// the rest of /x/big (4,021 entries)".
func (e *Interrupted) Error() string {
	head := signalName(e.Signal) + " during the deletion of " + Escape(e.Path) + ": "
	var stopped *dutree.StoppedError
	switch {
	case e.Err == nil:
		return head + "deleted in full"
	case errors.As(e.Err, &stopped) && stopped.Files+stopped.Dirs > 0:
		return head + deletedText(stopped, e.format, true) + "; not deleted: the rest of " + Escape(e.Path) +
			" (" + plural(stopped.Left, "entry", "entries") + ")"
	case stopped != nil:
		return head + "nothing deleted"
	}
	return head + "nothing deleted: " + Escape(e.Err.Error())
}

// deletedText is what a stopped deletion deleted: "12,700 files and 3
// directories (52 MiB)", with "deleted" before the size if said.
func deletedText(s *dutree.StoppedError, format func(int64) string, said bool) string {
	text := plural(s.Files, "file", "files") + " and " + plural(s.Dirs, "directory", "directories")
	if said {
		text += " deleted"
	}
	return text + " (" + format(s.Bytes) + ")"
}

// plural is n, its thousands separated by commas, and the word for it.
func plural(n int64, one, many string) string {
	digits := strconv.FormatInt(n, 10)
	for i := len(digits) - 3; i > 0 && digits[i-1] != '-'; i -= 3 {
		digits = digits[:i] + "," + digits[i:]
	}
	if n == 1 {
		return digits + " " + one
	}
	return digits + " " + many
}

// signalName is the signal's name as kill(1) gives it.
func signalName(sig os.Signal) string {
	switch sig {
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGHUP:
		return "SIGHUP"
	case syscall.SIGQUIT:
		return "SIGQUIT"
	}
	return fmt.Sprint(sig)
}
