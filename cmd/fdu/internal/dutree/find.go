package dutree

// Lookup is the entry of d named name, or nil: a search of its entries,
// which keep the listing's order (the browser sorts its own view).
func (d *Dir) Lookup(name string) *Node {
	c := d.cursor()
	var k Node
	for c.next(&k) {
		if k.Name == name {
			return &k
		}
	}
	return nil
}

// Remove takes the entry named name out of d, reporting whether it was
// there. The totals are Recount's to fix.
func (d *Dir) Remove(name string) bool {
	kids := d.Entries()
	for i := range kids {
		if kids[i].Name == name {
			d.set(append(kids[:i], kids[i+1:]...))
			return true
		}
	}
	return false
}

// Find is the node at names below the root (nil when a name is missing
// or not a directory on the way).
func (t *Tree) Find(names []string) *Node {
	root := t.Root()
	return findIn(&root, names)
}

func findIn(n *Node, names []string) *Node {
	for _, name := range names {
		if n.Dir == nil {
			return nil
		}
		if n = n.Dir.Lookup(name); n == nil {
			return nil
		}
	}
	return n
}

// Links is the paths below the root (names joined by "/") of every
// hard link to the file dev and ino, in the tree's order, at most max.
func (t *Tree) Links(dev, ino uint64, max int) []string {
	var out []string
	var walk func(d *Dir, path string)
	walk = func(d *Dir, path string) {
		c := d.cursor()
		var k Node
		for c.next(&k) {
			switch {
			case len(out) == max:
				return
			case k.Dir != nil:
				walk(k.Dir, path+k.Name+"/")
			case k.Flags&HardLink != 0 && k.Ino == ino && d.Dev == dev:
				out = append(out, path+k.Name)
			}
		}
	}
	if t.Top != nil {
		walk(t.Top, "")
	}
	return out
}
