package snapshot_test

import (
	"bytes"
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/pbednarcik/flexreaddir/snapshot"
)

// A snapshot in memory, some changes, and what Compare says of them.
func Example() {
	dir, err := os.MkdirTemp("", "snapshot-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	for _, name := range []string{"keep", "old", "edit"} {
		os.WriteFile(filepath.Join(dir, name), []byte(name), 0o644)
	}
	// Files changed within the file system's clock tick of the snapshot
	// are reported as possibly changed: let it pass.
	time.Sleep(3 * time.Second)

	var snap bytes.Buffer
	if err := snapshot.Take(context.Background(), dir, &snap, nil); err != nil {
		log.Fatal(err)
	}
	os.Rename(filepath.Join(dir, "old"), filepath.Join(dir, "new"))
	os.WriteFile(filepath.Join(dir, "edit"), []byte("edited"), 0o644)
	os.WriteFile(filepath.Join(dir, "added"), nil, 0o644)

	err = snapshot.Compare(context.Background(), &snap, dir, nil, func(c *snapshot.Change) error {
		if c.Kind == snapshot.Moved {
			fmt.Printf("%c %s -> %s\n", c.Kind, c.OldPath, c.Path)
		} else {
			fmt.Printf("%c %s %v\n", c.Kind, c.Path, c.Fields.Names())
		}
		return nil
	})
	if err != nil {
		log.Fatal(err)
	}
	// Output:
	// A added []
	// M edit [size mtime ctime]
	// R old -> new
}
