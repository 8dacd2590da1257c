package dutree

// Ext is what ncdu's extended mode (-e) keeps of an entry beyond its
// sizes: its owner, group and permissions. A tree keeps them only when
// scanned or read with Extended, in a column of their own beside the
// packed entries, so that a tree without them costs what it did.
type Ext struct {
	Uid, Gid uint32
	Mode     uint32 // st_mode, its type bits included; 0 when not known
}

// extCols are a directory's Ext: its own, and one per entry that is not
// a directory (a directory's is its Dir's own), in the entries' order.
// A Dir's pointer to them fits in the size class a Dir took before, so a
// tree without them allocates no more.
type extCols struct {
	own   Ext
	files []Ext
}

// setOwnExt keeps e as d's own Ext (nothing when e is zero and d has none).
func (d *Dir) setOwnExt(e Ext) {
	if d.ext == nil {
		if e == (Ext{}) {
			return
		}
		d.ext = &extCols{}
	}
	d.ext.own = e
}

// ownExt is d's own Ext, zero when not kept.
func (d *Dir) ownExt() Ext {
	if d.ext == nil {
		return Ext{}
	}
	return d.ext.own
}

// fileExt is the Ext of d's i-th entry that is not a directory.
func (d *Dir) fileExt(i int) Ext {
	if d.ext == nil || i >= len(d.ext.files) {
		return Ext{}
	}
	return d.ext.files[i]
}
