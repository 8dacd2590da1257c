//go:build !linux

package frd

import (
	"io/fs"
	"testing"
)

func checkSys(*testing.T, Entry, fs.FileInfo) {}

func makeSpecial(*testing.T, string) {}
