package main

import (
	"archive/zip"
	"bytes"
	"io"
	"io/fs"
	"os"
	"path"
	"time"
)

// The files a module zip is made from (golang.org/x/mod/zip.File).

// diskFile is a file of the working tree.
type diskFile struct {
	path, file string
	info       fs.FileInfo
}

func (f diskFile) Path() string                 { return f.path }
func (f diskFile) Lstat() (fs.FileInfo, error)  { return f.info, nil }
func (f diskFile) Open() (io.ReadCloser, error) { return os.Open(f.file) }

// archiveFile is a file of git archive's zip.
type archiveFile struct {
	path string
	f    *zip.File
}

func (f archiveFile) Path() string                 { return f.path }
func (f archiveFile) Lstat() (fs.FileInfo, error)  { return f.f.FileInfo(), nil }
func (f archiveFile) Open() (io.ReadCloser, error) { return f.f.Open() }

// dataFile is a file made in memory: a rewritten go.mod or go.sum.
type dataFile struct {
	path string
	data []byte
}

func (f dataFile) Path() string                 { return f.path }
func (f dataFile) Lstat() (fs.FileInfo, error)  { return dataInfo(f), nil }
func (f dataFile) Open() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(f.data)), nil }

type dataInfo dataFile

func (i dataInfo) Name() string       { return path.Base(i.path) }
func (i dataInfo) Size() int64        { return int64(len(i.data)) }
func (i dataInfo) Mode() fs.FileMode  { return 0o644 }
func (i dataInfo) ModTime() time.Time { return time.Time{} }
func (i dataInfo) IsDir() bool        { return false }
func (i dataInfo) Sys() any           { return nil }
