//go:build unix

package dutree

import (
	"context"
	"os"
	"testing"
)

// BenchmarkScan scans $DUTREE_BENCH_TREE (skipped without it): the
// browser's scan without its screen.
func BenchmarkScan(b *testing.B) {
	dir := os.Getenv("DUTREE_BENCH_TREE")
	if dir == "" {
		b.Skip("set DUTREE_BENCH_TREE to a tree to scan")
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := Scan(context.Background(), dir, ScanOptions{Walk: walkWorkers(2)}); err != nil {
			b.Fatal(err)
		}
	}
}
