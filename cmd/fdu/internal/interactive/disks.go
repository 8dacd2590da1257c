package interactive

import (
	"github.com/gdamore/tcell/v2"

	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/browse"
	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/disks"
)

// pickDisk shows the list of disks and returns the mount point chosen;
// "" when the user left it, or (with the error) when there is no list.
func (r *run) pickDisk(s tcell.Screen, color bool) (string, error) {
	d, err := disks.List()
	if err != nil {
		return "", err
	}
	mount, _ := browse.PickDisk(s, d, color, r.Format)
	return mount, nil
}

// diskError ends the run when the list of disks could not be made (1) or the
// user left it (0).
func (r *run) diskError(s tcell.Screen, err error) int {
	if err == nil {
		return 0
	}
	s.Fini()
	r.Warn("cannot list the disks: %s", browse.Escape(err.Error()))
	return 1
}
