// Package report prints what package du scanned: du's report (its lines,
// byte for byte, in du's order, each error where du meets it, and -c's
// total) and fdu's views beyond du (a tree of the largest entries, JSON,
// the largest files). Both read du's tree through its exported API, and
// both take the arguments through one per-argument step (eachArg). While
// du scans, Progress counts what it lists, on a line of its own on stderr.
//
// How a scan is shown changes here; what is counted does not (package
// du). It must not import browse or dutree.
package report
