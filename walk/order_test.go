package walk

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// TestInOrderTakesTheFirst: of the directories waiting, take returns the
// one a walk with one worker would visit first, whichever was pushed
// last; without InOrder, the last pushed (a LIFO stack).
func TestInOrderTakesTheFirst(t *testing.T) {
	for _, inOrder := range []bool{true, false} {
		t.Run(fmt.Sprint("InOrder=", inOrder), func(t *testing.T) {
			w := &walker{opts: Options{InOrder: inOrder}}
			w.cond.L = &w.mu
			root := &node{}
			root.fdn.Name = "r"
			w.stack = append(w.stack, root)
			mk := func(p *node, names ...string) []*node {
				var subs []*node
				for _, name := range names {
					c := &node{parent: p}
					c.fdn.Name = name
					c.dir.Depth = p.dir.Depth + 1
					subs = append(subs, c)
				}
				return subs
			}
			take := func() string {
				n := w.take(true)
				if n == nil {
					return "<none>"
				}
				w.busy--
				return n.fdn.Name
			}
			if got := take(); got != "r" {
				t.Fatalf("took %s, want r", got)
			}
			top := mk(root, "a", "b", "c")
			w.push(top)
			// Two workers take a and b; a's listing is pushed first, then
			// b's, then that of the directory taken next.
			took := []string{take(), take()}
			as := mk(top[0], "a0", "a1")
			w.push(as)
			w.push(mk(top[1], "b0", "b1"))
			took = append(took, take())
			w.push(mk(as[0], "a00"))
			for range 5 {
				took = append(took, take())
			}
			want := "a b a0 a00 a1 b0 b1 c"
			if !inOrder {
				want = "a b b0 a00 b1 a0 a1 c"
			}
			if got := fmt.Sprint(took); got != "["+want+"]" {
				t.Errorf("took %s, want [%s]", got, want)
			}
			if got := take(); got != "<none>" {
				t.Errorf("took %s after all", got)
			}
		})
	}
}

// TestInOrderWalksEverything: a walk taking directories in order visits
// each directory once, its Post after its subdirectories', as any walk.
func TestInOrderWalksEverything(t *testing.T) {
	root := t.TempDir()
	want := map[string]bool{root: true}
	for i := range 5 {
		for j := range 4 {
			for k := range 3 {
				p := filepath.Join(root, fmt.Sprint("a", i), fmt.Sprint("b", j), fmt.Sprint("c", k))
				if err := os.MkdirAll(p, 0o755); err != nil {
					t.Fatal(err)
				}
				for q := p; q != root; q = filepath.Dir(q) {
					want[q] = true
				}
			}
		}
	}
	var mu sync.Mutex
	visited, posted := map[string]int{}, map[string]bool{}
	subs := map[string][]string{}
	o := &Options{Workers: 4, InOrder: true, Post: func(d *Dir) error {
		mu.Lock()
		defer mu.Unlock()
		for _, s := range subs[d.Path] {
			if !posted[s] {
				t.Errorf("%s posted before its subdirectory %s", d.Path, s)
			}
		}
		posted[d.Path] = true
		return nil
	}}
	err := Dirs(t.Context(), root, o, func(d *Dir) error {
		mu.Lock()
		defer mu.Unlock()
		visited[d.Path]++
		for _, e := range d.Entries {
			if e.Type.IsDir() {
				subs[d.Path] = append(subs[d.Path], filepath.Join(d.Path, e.Name))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for p := range want {
		if visited[p] != 1 || !posted[p] {
			t.Errorf("%s visited %d times, posted %v", p, visited[p], posted[p])
		}
	}
	if len(visited) != len(want) {
		t.Errorf("visited %d directories, want %d", len(visited), len(want))
	}
}

// TestBeforeAcrossDepths: a directory comes before those below a later
// sibling, and after those below an earlier one, whichever is deeper.
// (Two directories waiting are never one above the other.)
func TestBeforeAcrossDepths(t *testing.T) {
	root := &node{}
	a := &node{parent: root, rank: 0}
	a.dir.Depth = 1
	b := &node{parent: root, rank: 1}
	b.dir.Depth = 1
	c := &node{parent: a}
	c.dir.Depth = 2
	bc := &node{parent: b}
	bc.dir.Depth = 2
	for _, p := range []struct {
		x, y *node
		name string
	}{{c, b, "a/c, b"}, {a, bc, "a, b/c"}} {
		if !before(p.x, p.y) || before(p.y, p.x) {
			t.Errorf("%s: before %v, after %v; want true, false", p.name, before(p.x, p.y), before(p.y, p.x))
		}
	}
}
