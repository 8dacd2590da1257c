package complete

import (
	"flag"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/spf13/pflag"

	"github.com/pbednarcik/flexreaddir/cmd/internal/complete/shelltest"
)

// sample is a program with subcommands and every kind of option: a
// switch, a value in the same word or the next, a value given only after
// '=', fixed words, file names, descriptions to quote.
func sample() *Program {
	top := pflag.NewFlagSet("top", pflag.ContinueOnError)
	top.SortFlags = false
	top.Bool("version", false, "it's the version")
	get := pflag.NewFlagSet("get", pflag.ContinueOnError)
	get.SortFlags = false
	get.BoolP("all", "a", false, "all [of them]: each")
	get.IntP("max-depth", "d", 0, "levels")
	get.String("time", "", "a time")
	get.Lookup("time").NoOptDefVal = "mtime"
	get.StringArrayP("exclude-from", "X", nil, "patterns' file")
	get.BoolP("H", "H", false, "short only")
	get.Lookup("H").Hidden = true
	put := flag.NewFlagSet("put", flag.ContinueOnError)
	put.Bool("json", false, "JSON")
	put.Int("j", 0, "workers")
	p := &Program{
		Command: Command{Name: "tool", Flags: FromPFlag(top), Operands: NoOperands},
		Subcommands: []Command{
			{Name: "get", Desc: "get: things", Flags: FromPFlag(get), Operands: FileOperands},
			{Name: "put", Desc: "put them", Flags: FromFlag(put), Operands: DirOperands},
		},
	}
	WithChoices(p.Subcommands[0].Flags, "time", "atime", "ctime")
	WithFiles(p.Subcommands[0].Flags, "exclude-from")
	return p
}

func TestScriptsParse(t *testing.T) {
	for _, shell := range Shells {
		t.Run(shell, func(t *testing.T) {
			s, err := Script(sample(), shell)
			if err != nil {
				t.Fatal(err)
			}
			shelltest.Parses(t, shell, s)
		})
	}
}

func TestFromPFlag(t *testing.T) {
	got := sample().Subcommands[0].Flags
	want := []Flag{
		{Long: "all", Short: "a", Desc: "all [of them]: each"},
		{Long: "max-depth", Short: "d", Arg: RequiredArg, Desc: "levels"},
		{Long: "time", Arg: OptionalArg, Choices: []string{"atime", "ctime"}, Desc: "a time"},
		{Long: "exclude-from", Short: "X", Arg: RequiredArg, Repeats: true, Files: true, Desc: "patterns' file"},
		{Short: "H", Desc: "short only"},
	}
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.Long != w.Long || g.Short != w.Short || g.Arg != w.Arg || g.Repeats != w.Repeats ||
			g.Files != w.Files || g.Desc != w.Desc || !slices.Equal(g.Choices, w.Choices) {
			t.Errorf("flag %d: got %+v, want %+v", i, g, w)
		}
	}
}

func TestBash(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "file.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	script := Bash(sample())
	for _, c := range []struct {
		words []string
		want  []string
	}{
		{[]string{"tool", ""}, []string{"get", "put"}},
		{[]string{"tool", "--v"}, []string{"--version"}},
		{[]string{"tool", "get", "--ma"}, []string{"--max-depth="}},
		{[]string{"tool", "get", "--t"}, []string{"--time", "--time="}},
		{[]string{"tool", "get", "--time", "=", ""}, []string{"atime", "ctime"}},
		{[]string{"tool", "get", "--time=c"}, []string{"ctime"}},
		{[]string{"tool", "get", "-X", "fi"}, []string{"file.txt"}},
		{[]string{"tool", "get", "-d", ""}, nil},
		{[]string{"tool", "get", "-"}, []string{"--all", "-a", "--max-depth=", "-d", "--time", "--time=", "--exclude-from=", "-X", "-H"}},
		{[]string{"tool", "get", "--", "-"}, nil},
		{[]string{"tool", "get", "s"}, []string{"sub"}},
		{[]string{"tool", "put", ""}, []string{"sub"}},
		{[]string{"tool", "put", "-"}, []string{"-j", "--json"}}, // flag's order: by name
	} {
		if got := shelltest.Bash(t, script, dir, c.words...); !slices.Equal(got, c.want) {
			t.Errorf("%q: offered %q, want %q", c.words, got, c.want)
		}
	}
}

func TestUnknownShell(t *testing.T) {
	if _, err := Script(sample(), "csh"); err == nil {
		t.Error("csh: no error")
	}
}
