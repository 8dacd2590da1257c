package snapshot

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// mutator changes a tree until stopped: it makes, removes and renames
// files and directories, and replaces directories by files, noting every
// path it ever made.
type mutator struct {
	dir  string
	mu   sync.Mutex
	made map[string]bool
}

func (m *mutator) note(rel string) {
	m.mu.Lock()
	m.made[rel] = true
	m.mu.Unlock()
}

func (m *mutator) run(stop <-chan struct{}, seed uint64) {
	r := rand.New(rand.NewPCG(seed, 1))
	for i := 0; ; i++ {
		select {
		case <-stop:
			return
		default:
		}
		a := fmt.Sprintf("d%d/m%d", r.IntN(4), r.IntN(6))
		b := fmt.Sprintf("d%d/m%d", r.IntN(4), r.IntN(6))
		pa, pb := filepath.Join(m.dir, a), filepath.Join(m.dir, b)
		switch r.IntN(5) {
		case 0:
			m.note(a)
			os.WriteFile(pa, []byte("x"), 0o644)
		case 1:
			m.note(a)
			m.note(a + "/f")
			os.Mkdir(pa, 0o755)
			os.WriteFile(filepath.Join(pa, "f"), nil, 0o644)
		case 2:
			os.RemoveAll(pa)
		case 3:
			m.note(b)
			m.note(b + "/f") // a directory's file moves with it
			os.Rename(pa, pb)
		case 4:
			m.note(a)
			os.Chmod(pa, 0o700)
		}
	}
}

// TestConcurrentChanges: snapshots and compares of a tree that changes
// all the while neither panic nor fail, and every path they report
// existed at some point.
func TestConcurrentChanges(t *testing.T) {
	dir := t.TempDir()
	base := []string{"keep/f"}
	for i := range 4 {
		for j := range 6 {
			base = append(base, fmt.Sprintf("d%d/m%d", i, j))
		}
	}
	build(t, dir, base...)
	m := &mutator{dir: dir, made: map[string]bool{"keep": true}}
	for _, p := range base {
		m.made[p] = true
		m.made[filepath.Dir(p)] = true
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := range 2 {
		wg.Add(1)
		go func() { defer wg.Done(); m.run(stop, uint64(w)) }()
	}
	defer func() { close(stop); wg.Wait() }()
	deadline := time.Now().Add(2 * time.Second)
	for time.Now().Before(deadline) {
		var buf bytes.Buffer
		if err := Take(context.Background(), dir, &buf, nil); err != nil && !errors.Is(err, ErrIncomplete) {
			t.Fatalf("Take: %v", err)
		}
		err := Compare(context.Background(), bytes.NewReader(buf.Bytes()), dir, nil, func(c *Change) error {
			m.mu.Lock()
			defer m.mu.Unlock()
			for _, p := range []string{c.Path, c.OldPath} {
				if p != "" && !m.made[p] {
					t.Errorf("%c %s: a path that never existed", c.Kind, p)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatalf("Compare: %v", err)
		}
	}
}
