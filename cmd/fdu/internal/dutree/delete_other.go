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

func (t *Tree) move(context.Context, []string, *Dir, *Node, func(int, string, func(int, string) error) error) error {
	return errNoDeletion
}

func (t *Tree) truncate([]string, *Dir, *Node) (int64, int64, error) { return 0, 0, errNoDeletion }
