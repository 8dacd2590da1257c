// Package interactive runs fdu's ncdu-like modes, which du does not
// have: -i scans a directory with a progress screen and browses it (or
// first lets the user pick a disk, --disks), -f browses a scan saved in
// ncdu's format, and -o exports a scan (written as it is made where it
// can be). It joins package dutree's tree, package browse's screen and
// package disks' list; the command fills its Config from the flags.
//
// How these modes are started, and what they print when they end,
// change here; what the browser shows and its keys do not (package
// browse), nor the tree, its scan and its format (package dutree). It
// must not import report: du's report and views are the command's other
// path, and nothing of fdu's but the command imports it.
package interactive
