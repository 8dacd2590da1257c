package main

import (
	"fmt"
	"io/fs"

	"github.com/pbednarcik/flexreaddir/snapshot"
)

// jsonChange is a change as --json writes it. A path that is not valid
// UTF-8 is also given exactly in its _bytes field (base64), as ls --json
// does.
type jsonChange struct {
	Kind         string     `json:"kind"`
	Path         string     `json:"path"`
	PathBytes    []byte     `json:"path_bytes,omitempty"`
	OldPath      string     `json:"old_path,omitempty"`
	OldPathBytes []byte     `json:"old_path_bytes,omitempty"`
	Fields       []string   `json:"fields,omitempty"`
	Error        string     `json:"error,omitempty"`
	Old          *jsonState `json:"old,omitempty"`
	New          *jsonState `json:"new,omitempty"`
}

// jsonState is an entry's recorded fields.
type jsonState struct {
	Type   string `json:"type"`
	Perm   string `json:"perm"`
	Size   int64  `json:"size"`
	MTime  int64  `json:"mtime_ns"`
	CTime  int64  `json:"ctime_ns"`
	Inode  uint64 `json:"inode"`
	Links  uint64 `json:"links,omitempty"`
	UID    uint32 `json:"uid"`
	GID    uint32 `json:"gid"`
	Target string `json:"target,omitempty"`
	Hashed bool   `json:"hashed,omitempty"`
}

func toJSONChange(c *snapshot.Change) jsonChange {
	j := jsonChange{Kind: string(c.Kind), Path: c.Path, PathBytes: exactBytes(c.Path), OldPath: c.OldPath,
		OldPathBytes: exactBytes(c.OldPath), Fields: c.Fields.Names()}
	if c.Err != nil {
		j.Error = c.Err.Error()
	}
	if c.Kind != snapshot.Added {
		j.Old = toJSONState(&c.Old)
	}
	if c.Kind != snapshot.Removed && c.Kind != snapshot.Unreadable {
		j.New = toJSONState(&c.New)
	}
	return j
}

func toJSONState(e *snapshot.Entry) *jsonState {
	if e.Name == "" {
		return nil
	}
	return &jsonState{Type: typeName(e.Type), Perm: fmt.Sprintf("%04o", uint32(e.Perm.Perm())|setBits(e)), Size: e.Size,
		MTime: e.ModTime, CTime: e.ChangeTime, Inode: e.FileID, Links: e.Links, UID: e.UID, GID: e.GID,
		Target: e.Target, Hashed: e.Hash != ""}
}

// setBits is e's set-id and sticky bits as the octal digit chmod takes.
func setBits(e *snapshot.Entry) uint32 {
	var b uint32
	if e.Perm&fs.ModeSetuid != 0 {
		b |= 0o4000
	}
	if e.Perm&fs.ModeSetgid != 0 {
		b |= 0o2000
	}
	if e.Perm&fs.ModeSticky != 0 {
		b |= 0o1000
	}
	return b
}
