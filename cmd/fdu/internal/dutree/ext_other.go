//go:build !unix

package dutree

// extAt is nothing here: Windows has no uid, gid or mode to keep (not
// verified beyond building).
func extAt(int, string, bool) (Ext, bool) { return Ext{}, false }
