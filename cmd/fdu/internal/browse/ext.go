package browse

import (
	"os/user"
	"strconv"

	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/dutree"
)

// idNames are owner and group names from the user and group databases,
// looked up once per id: a directory of a million files has a few owners.
type idNames struct {
	users, groups map[uint32]string
}

func (c *idNames) user(id uint32) string  { return c.name(&c.users, id, false) }
func (c *idNames) group(id uint32) string { return c.name(&c.groups, id, true) }

// name is id's name, or its number where the database has none.
func (c *idNames) name(m *map[uint32]string, id uint32, group bool) string {
	if n, ok := (*m)[id]; ok {
		return n
	}
	if *m == nil {
		*m = map[uint32]string{}
	}
	s := strconv.FormatUint(uint64(id), 10)
	if n := lookupID(s, group); n != "" {
		s = n
	}
	(*m)[id] = s
	return s
}

// lookupID is the name of the user, or with group of the group, whose
// id is s; "" when the database has none.
func lookupID(s string, group bool) string {
	if group {
		if g, err := user.LookupGroupId(s); err == nil {
			return g.Name
		}
	} else if u, err := user.LookupId(s); err == nil {
		return u.Username
	}
	return ""
}

// modeString is st_mode as ls -l writes it: the type, then rwx for the
// owner, group and others with the setuid, setgid and sticky bits.
func modeString(m uint32) string {
	b := []byte("?---------")
	// The type's letter by S_IFMT's value: p fifo, c char, d dir, b block,
	// - regular, l link, s socket.
	b[0] = "?pc?d?b?-?l?s???"[m>>12&0xf]
	for i, c := range "rwxrwxrwx" {
		if m&(1<<(8-i)) != 0 {
			b[i+1] = byte(c)
		}
	}
	special := func(bit uint32, at int, set, noExec byte) {
		if m&bit != 0 {
			if b[at] == 'x' {
				b[at] = set
			} else {
				b[at] = noExec
			}
		}
	}
	special(0o4000, 3, 's', 'S')
	special(0o2000, 6, 's', 'S')
	special(0o1000, 9, 't', 'T')
	return string(b)
}

// ownerText is the owner column: user, group and mode, or blanks where
// the entry's are not known.
func (b *browser) ownerText(n *dutree.Node) shown {
	if n.Ext.Mode == 0 {
		return textf("%-8s %-8s %-10s ", "", "", "")
	}
	return textf("%-8.8s %-8.8s %s ", b.ids.user(n.Ext.Uid), b.ids.group(n.Ext.Gid), modeString(n.Ext.Mode))
}

// extLines are the details window's lines of extended mode.
func (b *browser) extLines(n *dutree.Node) []shown {
	if !b.cfg.Tree.Extended || n.Ext.Mode == 0 {
		return nil
	}
	return []shown{
		textf("Owner:       %s (%d)", b.ids.user(n.Ext.Uid), n.Ext.Uid),
		textf("Group:       %s (%d)", b.ids.group(n.Ext.Gid), n.Ext.Gid),
		textf("Mode:        %s (%04o)", modeString(n.Ext.Mode), n.Ext.Mode&0o7777),
	}
}

// toggleOwner shows or hides the owner column, which needs -e.
func (b *browser) toggleOwner() {
	if !b.cfg.Tree.Extended {
		b.message = "the owner column needs extended mode: fdu -e"
		return
	}
	b.owner = !b.owner
}
