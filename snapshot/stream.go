package snapshot

import (
	"io"
	"strings"
)

// pending is a directory of a snapshot read ahead, and, for Compare, its
// check against the tree.
type pending struct {
	rec *Dir
	job *job
}

// stream is a snapshot's directories, with one looked at ahead.
type stream struct {
	next func() (*pending, error) // the next directory, or io.EOF
	head *pending
	err  error // io.EOF once read to the end
}

// peek returns the next directory without taking it, nil at the end.
func (s *stream) peek() (*pending, error) {
	if s.head == nil && s.err == nil {
		s.head, s.err = s.next()
	}
	if s.err == io.EOF {
		return nil, nil
	}
	return s.head, s.err
}

// record takes the directory at path if it comes next, or returns nil if
// the snapshot has none there (it could not be read); one that comes
// before it belongs to no directory its parent lists.
func (s *stream) record(path string) (*pending, error) {
	p, err := s.peek()
	if err != nil || p == nil {
		return nil, err
	}
	switch cmp := comparePaths(p.rec.Path, path); {
	case cmp < 0:
		return nil, orphan(p.rec.Path)
	case cmp > 0:
		return nil, nil
	}
	s.head = nil
	return p, nil
}

// skip passes over the directories below path.
func (s *stream) skip(path string) error {
	for {
		p, err := s.peek()
		if err != nil || p == nil || !within(p.rec.Path, path) {
			return err
		}
		s.head = nil
	}
}

// end checks that every directory was taken.
func (s *stream) end() error {
	p, err := s.peek()
	if err == nil && p != nil {
		err = orphan(p.rec.Path)
	}
	return err
}

// within reports whether path is dir or below it.
func within(path, dir string) bool {
	return dir == "" || path == dir || strings.HasPrefix(path, dir) && path[len(dir)] == '/'
}

// readerStream is rd's directories, one at a time.
func readerStream(rd *Reader) *stream {
	return &stream{next: func() (*pending, error) {
		d, err := rd.Next()
		if err != nil {
			return nil, err
		}
		return &pending{rec: d}, nil
	}}
}
