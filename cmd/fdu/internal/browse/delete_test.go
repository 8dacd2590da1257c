package browse

import (
	"errors"
	"strings"
	"syscall"
	"testing"

	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/dutree"
)

// TestConfirmCountsExcluded: the confirmation of a directory's deletion
// says how many entries excluded from the scan it deletes with it, and
// that a directory holding an excluded directory will not be deleted.
func TestConfirmCountsExcluded(t *testing.T) {
	file := func(name string, f dutree.Flags) dutree.Node {
		return dutree.Node{Name: name, Ino: 9, Flags: f, Nlink: 1}
	}
	tr := dutree.NewTree(dutree.Node{Name: "/r", Dir: dutree.NewDir(0, []dutree.Node{
		{Name: "d", Dir: dutree.NewDir(0, []dutree.Node{
			file("a.important", dutree.Excluded), file("x", 0),
			{Name: "sub", Dir: dutree.NewDir(0, []dutree.Node{file("b.important", dutree.Excluded), file("c.important", dutree.Excluded)}...)},
		}...)},
		{Name: "one", Dir: dutree.NewDir(0, []dutree.Node{file("a.important", dutree.Excluded)}...)},
		{Name: "plain", Dir: dutree.NewDir(0, []dutree.Node{file("x", 0)}...)},
		{Name: "proj", Dir: dutree.NewDir(0, []dutree.Node{{Name: "node_modules", Flags: dutree.Excluded}, file("a.important", dutree.Excluded)}...)},
	}...)})
	tr.Recount()
	for _, c := range []struct{ name, want, not string }{
		{"d", "It holds 3 entries excluded from the scan (--exclude); they are deleted too.", ""},
		{"one", "It holds 1 entry excluded from the scan (--exclude); it is deleted too.", ""},
		{"plain", "", "excluded"},
		{"proj", "It holds 1 directory excluded from the scan (--exclude), never read: it cannot be deleted.", "deleted too"},
	} {
		b, s := newTest(t, 100, 30, Config{Tree: tr})
		press(b, "n")
		for b.selected().Name != c.name {
			press(b, "j")
		}
		press(b, "d")
		b.draw()
		all := strings.Join(text(s), "\n")
		if !strings.Contains(all, "Confirm delete") || c.want != "" && !strings.Contains(all, c.want) || c.not != "" && strings.Contains(all, c.not) {
			t.Errorf("%s: the confirmation lacks %q (or holds %q):\n%s", c.name, c.want, c.not, all)
		}
	}
}

// TestInterruptedSays: what fdu prints when a signal stopped a deletion.
func TestInterruptedSays(t *testing.T) {
	format := func(n int64) string { return Human(n, false) }
	for _, c := range []struct {
		err  error
		want string
	}{
		{&dutree.StoppedError{Files: 12700, Dirs: 3, Bytes: 52 << 20, Left: 4021, Err: errors.New("x")},
			"SIGTERM during the deletion of /x/big: 12,700 files and 3 directories deleted (52.0 MiB); not deleted: the rest of /x/big (4,021 entries)"},
		{&dutree.StoppedError{Files: 1, Dirs: 1, Bytes: 0, Left: 1, Err: errors.New("x")},
			"SIGTERM during the deletion of /x/big: 1 file and 1 directory deleted (0 B); not deleted: the rest of /x/big (1 entry)"},
		{&dutree.StoppedError{Left: 9, Err: errors.New("x")}, "SIGTERM during the deletion of /x/big: nothing deleted"},
		{nil, "SIGTERM during the deletion of /x/big: deleted in full"},
		{dutree.ErrOtherFS, "SIGTERM during the deletion of /x/big: nothing deleted: " + dutree.ErrOtherFS.Error()},
	} {
		e := &Interrupted{Signal: syscall.SIGTERM, Path: "/x/big", Err: c.err, format: format}
		if got := e.Error(); got != c.want {
			t.Errorf("%q\nwant %q", got, c.want)
		}
	}
}
