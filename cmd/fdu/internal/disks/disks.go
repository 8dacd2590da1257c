package disks

import (
	"cmp"
	"slices"
)

// Disk is one mounted file system.
type Disk struct {
	Device     string // what was mounted: a device, or the source mount names
	MountPoint string
	Type       string // the file system type, as mount names it
	Size, Used uint64 // bytes
	Free       uint64 // bytes available to an unprivileged user
}

// List is the mounted file systems that hold files (not proc, sysfs and
// the other pseudo file systems, nor any of size 0), the most used first
// as gdu sorts them, then by mount point.
func List() ([]Disk, error) {
	d, err := list()
	if err != nil {
		return nil, err
	}
	Sort(d)
	return d, nil
}

// Sort orders d by used space, largest first, then by mount point.
func Sort(d []Disk) {
	slices.SortStableFunc(d, func(a, b Disk) int {
		if c := cmp.Compare(b.Used, a.Used); c != 0 {
			return c
		}
		return cmp.Compare(a.MountPoint, b.MountPoint)
	})
}

// pseudo are the file system types that hold no user files, or hold
// them only as another mount shows them.
var pseudo = map[string]bool{
	"proc": true, "sysfs": true, "cgroup": true, "cgroup2": true, "devpts": true, "debugfs": true,
	"tracefs": true, "securityfs": true, "pstore": true, "bpf": true, "configfs": true, "selinuxfs": true,
	"efivarfs": true, "mqueue": true, "hugetlbfs": true, "autofs": true, "binfmt_misc": true,
	"fusectl": true, "rpc_pipefs": true, "nsfs": true, "devtmpfs": true, "ramfs": true,
}

// Pseudo reports whether fstype is a pseudo file system, never listed.
func Pseudo(fstype string) bool { return pseudo[fstype] }
