package disks

import (
	"os"

	"golang.org/x/sys/unix"
)

func list() ([]Disk, error) {
	data, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return nil, err
	}
	var out []Disk
	for _, m := range ParseMountinfo(data) {
		if Pseudo(m.Type) {
			continue
		}
		var st unix.Statfs_t
		if err := unix.Statfs(m.MountPoint, &st); err != nil || st.Blocks == 0 {
			continue // gone since, hidden under another mount, or of no size
		}
		bs := uint64(st.Bsize)
		if st.Frsize > 0 {
			bs = uint64(st.Frsize) // the unit of the block counts where given
		}
		out = append(out, Disk{
			Device: m.Source, MountPoint: m.MountPoint, Type: m.Type,
			Size: st.Blocks * bs, Used: (st.Blocks - st.Bfree) * bs, Free: st.Bavail * bs,
		})
	}
	return out, nil
}
