// Package du is fdu's disk-usage scan, as GNU du counts: the options a
// run takes (Config, which the command fills), the one place fdu turns
// them into walk.Options (Config.WalkOptions, for the browser's scan
// too), a scan of a directory into a compact tree (Scan, Dir, Item) or
// only its total (Sum), the stat of each command-line argument, --exclude
// matching, and du's order: the order of a directory's entries (by inode
// in huge ones, as fts sorts them) and of the errors a parallel walk meets.
//
// What du counts, and in which order it meets what, changes here; how a
// tree is printed does not (package report). It must not import report,
// browse or dutree; progress is counted through the Progress interface,
// which the command implements.
package du
