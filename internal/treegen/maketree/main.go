// Command maketree makes one of treegen's trees, for benchmark scripts.
//
//	go run ./internal/treegen/maketree -shape source|deep|huge|million|node_modules|seed-large|seed-small [-seed N] DIR
//
// DIR must not exist. It prints the number of entries made.
package main

import (
	"flag"
	"fmt"
	"log"
	"os"

	"github.com/pbednarcik/flexreaddir/internal/treegen"
)

func main() {
	shape := flag.String("shape", "source", "source, deep, huge, million, node_modules, seed-large or seed-small")
	seed := flag.Uint64("seed", 1, "seed for names and sizes")
	flag.Parse()
	if flag.NArg() != 1 {
		log.Fatal("usage: maketree [-shape S] [-seed N] DIR")
	}
	shapes := map[string]treegen.Shape{
		"source": treegen.SourceCheckout, "deep": treegen.Deep,
		"huge": treegen.Huge, "million": treegen.Million, "node_modules": treegen.NodeModules,
		"seed-large": treegen.SeedLarge, "seed-small": treegen.SeedSmall,
	}
	s, ok := shapes[*shape]
	if !ok {
		log.Fatalf("unknown shape %q", *shape)
	}
	dir := flag.Arg(0)
	if err := os.Mkdir(dir, 0o755); err != nil {
		log.Fatal(err)
	}
	n, err := treegen.Make(dir, s, *seed)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(n)
}
