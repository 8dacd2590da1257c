package dutree

import "golang.org/x/sys/unix"

// configfsMagic is configfs's f_type (x/sys has no name for it).
const configfsMagic = 0x62656570

// kernFS reports whether the directory name in parent is on one of the
// kernel file systems ncdu's --exclude-kernfs leaves out (and configfs
// and efivarfs besides), by its statfs f_type. It is opened with O_PATH,
// which reads nothing of it and follows no link.
func kernFS(parent int, name string) bool {
	fd, err := retry(func() (int, error) {
		return unix.Openat(parent, name, unix.O_PATH|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	})
	if err != nil {
		return false
	}
	defer unix.Close(fd)
	var st unix.Statfs_t
	if err := unix.Fstatfs(fd, &st); err != nil {
		return false
	}
	switch uint32(st.Type) {
	case unix.BINFMTFS_MAGIC, unix.BPF_FS_MAGIC, unix.CGROUP_SUPER_MAGIC, unix.CGROUP2_SUPER_MAGIC,
		unix.DEBUGFS_MAGIC, unix.DEVPTS_SUPER_MAGIC, unix.PROC_SUPER_MAGIC, unix.PSTOREFS_MAGIC,
		unix.SECURITYFS_MAGIC, unix.SELINUX_MAGIC, unix.SYSFS_MAGIC, unix.TRACEFS_MAGIC,
		unix.EFIVARFS_MAGIC, configfsMagic:
		return true
	}
	return false
}
