package main

import (
	"context"
	"errors"
	"runtime"

	"github.com/gdamore/tcell/v2"

	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/browse"
	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/disks"
	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/dutree"
	"github.com/pbednarcik/flexreaddir/cmd/internal/version"
)

// browseConfig is the browser's configuration for the tree t.
func (c *command) browseConfig(cfg *config, v *flagValues, t *dutree.Tree, imported string, color bool, opts dutree.ScanOptions, quitPath *string) browse.Config {
	return browse.Config{
		Age: v.browse.age, ConfirmQuit: *v.browse.confirmQuit, QuitPath: quitPath,
		Tree: t, Version: version.Number(), Apparent: cfg.du.Apparent, Format: sizeFormat(cfg, v),
		ReadOnly: *v.browse.readOnly, Imported: imported, Color: color, Mtime: cfg.du.ShowTime, Mouse: !*v.browse.noMouse,
		Rescan: func(ctx context.Context, path string, n *dutree.Node, p *dutree.Progress) ([]dutree.Error, error) {
			o := opts
			o.Progress = p
			return dutree.Rescan(ctx, path, n, o)
		},
		Export: func(name string) error {
			if name == "-" {
				return errors.New("standard output is the screen: name a file")
			}
			return c.export(name, t, cfg.du.ShowTime)
		},
		Disks: runtime.GOOS == "linux",
	}
}

// pickDisk shows the list of disks and returns the mount point chosen;
// "" when the user left it, or (with the error) when there is no list.
func (c *command) pickDisk(s tcell.Screen, cfg *config, v *flagValues, color bool) (string, error) {
	d, err := disks.List()
	if err != nil {
		return "", err
	}
	mount, _ := browse.PickDisk(s, d, color, sizeFormat(cfg, v))
	return mount, nil
}

// diskError ends fdu when the list of disks could not be made (1) or the
// user left it (0).
func (c *command) diskError(s tcell.Screen, err error) int {
	if err == nil {
		return 0
	}
	s.Fini()
	c.warn("cannot list the disks: %s", browse.Escape(err.Error()))
	return 1
}
