// Package dutree is the in-memory tree behind fdu's interactive browser
// and its ncdu-format export and import: every entry of a scan, packed in
// its directory's bytes (pack.go: about 8 bytes and its name, where a
// struct took 64 and its name), with each directory's totals counted as
// du counts them (a file with several links once).
//
// It owns that tree: its scan (on walk options its caller makes), its
// totals, deletion, and ncdu's JSON format. The tree and the format
// change here; how the browser shows them does not (package browse). It
// must not import du, report or browse.
package dutree
