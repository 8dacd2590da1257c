package disks

import (
	"reflect"
	"testing"
)

func TestParseMountinfo(t *testing.T) {
	data := []byte(`22 1 0:21 / /proc rw,nosuid shared:12 - proc proc rw
29 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw
40 29 0:35 / /mnt/a\040b\011c rw master:1 shared:3 - tmpfs my\134src rw,size=10k
41 29 7:0 / /mnt/x\012y rw - ext4 /dev/loop0 rw
short line
42 29 0:36 / /no/type rw
`)
	want := []Mount{
		{Source: "proc", MountPoint: "/proc", Type: "proc"},
		{Source: "/dev/sda1", MountPoint: "/", Type: "ext4"},
		{Source: `my\src`, MountPoint: "/mnt/a b\tc", Type: "tmpfs"},
		{Source: "/dev/loop0", MountPoint: "/mnt/x\ny", Type: "ext4"},
	}
	if got := ParseMountinfo(data); !reflect.DeepEqual(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

func TestSort(t *testing.T) {
	d := []Disk{{MountPoint: "/b", Used: 1}, {MountPoint: "/a", Used: 5}, {MountPoint: "/c", Used: 5}, {MountPoint: "/d"}}
	Sort(d)
	var got []string
	for _, x := range d {
		got = append(got, x.MountPoint)
	}
	if want := []string{"/a", "/c", "/b", "/d"}; !reflect.DeepEqual(got, want) {
		t.Errorf("sorted %q, want %q", got, want)
	}
}

// TestParseMountinfoOddNames: the kernel escapes only space, tab, newline
// and backslash; a name's other bytes are raw, and none of them splits a
// field: a carriage return, a vertical tab, a no-break space, an escape.
func TestParseMountinfoOddNames(t *testing.T) {
	data := []byte("43 29 0:37 / /mnt/a\rb\vc\u00a0d\u2003e\x1b[31m rw - tmpfs sr\u00a0c rw\n")
	want := []Mount{{Source: "sr\u00a0c", MountPoint: "/mnt/a\rb\vc\u00a0d\u2003e\x1b[31m", Type: "tmpfs"}}
	if got := ParseMountinfo(data); !reflect.DeepEqual(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}
