//go:build !unix

package dutree

import (
	"context"
	"errors"
)

// errNoDeletion is Delete's answer where it cannot check what it would
// delete as it must (a descriptor-relative walk, inodes, birth times):
// Windows and the other systems.
var errNoDeletion = errors.New("deletion is not supported on this system")

func (t *Tree) remove(context.Context, []string, *Dir, *Node) (outcome, error) {
	return outcome{}, errNoDeletion
}
