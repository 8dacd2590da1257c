package trash

import (
	"os"
	"testing"

	"github.com/pbednarcik/flexreaddir/internal/testfs"
)

// TestMain lets the test binary act as the helper that races as nobody.
func TestMain(m *testing.M) {
	testfs.SwapIfHelper()
	os.Exit(m.Run())
}
