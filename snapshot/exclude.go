package snapshot

import (
	"path"
	"strings"
)

// excluder matches the patterns of Options.Exclude.
type excluder struct{ patterns []string }

// newExcluder checks the patterns' syntax.
func newExcluder(patterns []string) (*excluder, error) {
	for _, p := range patterns {
		if _, err := path.Match(p, ""); err != nil {
			return nil, &patternError{p, err}
		}
	}
	return &excluder{patterns}, nil
}

type patternError struct {
	pattern string
	err     error
}

func (e *patternError) Error() string {
	return "snapshot: exclude pattern " + e.pattern + ": " + e.err.Error()
}
func (e *patternError) Unwrap() error { return e.err }

// excluded reports whether the entry name, at rel relative to the root, is
// left out: a pattern with a "/" is matched against rel (a leading "/"
// anchors it at the root and is dropped), one without against the name,
// as path.Match matches.
func (x *excluder) excluded(rel, name string) bool {
	if x == nil {
		return false
	}
	for _, p := range x.patterns {
		target := name
		if strings.Contains(p, "/") {
			target = rel
			p = strings.TrimPrefix(p, "/")
		}
		if ok, _ := path.Match(p, target); ok {
			return true
		}
	}
	return false
}
