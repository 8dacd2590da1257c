package libsystem_test

import (
	"debug/macho"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// TestImports cross-builds a program that calls the three functions for
// both macOS architectures and checks that the binary imports each symbol
// and links libSystem: a darwin binary cannot run here, but its imports
// can be read.
func TestImports(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping the darwin cross-builds in short mode")
	}
	for _, arch := range []string{"arm64", "amd64"} {
		t.Run(arch, func(t *testing.T) {
			bin := filepath.Join(t.TempDir(), "probe")
			cmd := exec.Command("go", "build", "-o", bin, "./testdata/probe")
			cmd.Env = append(cmd.Environ(), "GOOS=darwin", "GOARCH="+arch, "CGO_ENABLED=0")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("go build: %v\n%s", err, out)
			}
			f, err := macho.Open(bin)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			syms, err := f.ImportedSymbols()
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{"_getattrlistbulk", "_fgetattrlist", "___getdirentries64"} {
				if !slices.Contains(syms, want) {
					t.Errorf("%s does not import %s", arch, want)
				}
			}
			libs, err := f.ImportedLibraries()
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Contains(libs, "/usr/lib/libSystem.B.dylib") {
				t.Errorf("%s does not link libSystem: %q", arch, libs)
			}
		})
	}
}
