// Package browse is fdu's interactive browser: a full-screen list of a
// directory's entries by size, entered and left with the keys ncdu users
// know, where an entry can be deleted and a directory scanned again, on a
// tcell screen.
//
// It owns the screen: the list, the keys, the panes and the progress of a
// scan. How the browser looks and what its keys do change here; the tree
// it shows, and how that is scanned, deleted from, read and written, are
// package dutree's. It must not import du or report: it reads dutree's
// tree only.
package browse
