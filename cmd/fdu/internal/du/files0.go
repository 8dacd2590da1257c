package du

import (
	"errors"
	"io"
	"os"
	"strings"

	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/message"
)

// ReadFiles0 is the names --files0-from's file lists ("-": stdin), each
// ended by a NUL but the last, which may end without one. Its error is
// du's message for a file that cannot be opened or read (a directory).
func ReadFiles0(name string, stdin io.Reader) ([]string, error) {
	data, err := readFiles0(name, stdin)
	if err != nil || len(data) == 0 {
		return nil, err
	}
	names := strings.Split(string(data), "\x00")
	if data[len(data)-1] == 0 {
		names = names[:len(names)-1]
	}
	return names, nil
}

func readFiles0(name string, stdin io.Reader) ([]byte, error) {
	if name == "-" {
		data, err := io.ReadAll(stdin)
		if err != nil {
			return nil, errors.New(message.ReadError(name, err))
		}
		return data, nil
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, errors.New(message.CannotOpen(name, err))
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, errors.New(message.ReadError(name, err))
	}
	return data, nil
}
