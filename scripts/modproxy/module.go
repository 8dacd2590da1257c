package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"

	"golang.org/x/mod/module"
	"golang.org/x/mod/sumdb/dirhash"
	modzip "golang.org/x/mod/zip"
)

const (
	libPath = "github.com/pbednarcik/flexreaddir"
	cmdPath = libPath + "/cmd"
)

// writeModule writes module path at version, made of files, as a proxy
// serves it: @v/list, VERSION.info, .mod and .zip. It returns the zip's
// name and the go.mod's content.
func writeModule(out, path, version string, files []modzip.File) (zipFile string, mod []byte, err error) {
	escPath, err := module.EscapePath(path)
	if err != nil {
		return "", nil, err
	}
	escVersion, err := module.EscapeVersion(version)
	if err != nil {
		return "", nil, err
	}
	dir := filepath.Join(out, filepath.FromSlash(escPath), "@v")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", nil, err
	}
	base := filepath.Join(dir, escVersion)
	if err := writeZip(base+".zip", module.Version{Path: path, Version: version}, files); err != nil {
		return "", nil, err
	}
	mod = fileData(files, "go.mod")
	info, _ := json.Marshal(struct{ Version, Time string }{version, time.Now().UTC().Format(time.RFC3339)})
	for name, data := range map[string][]byte{base + ".mod": mod, base + ".info": info, filepath.Join(dir, "list"): []byte(version + "\n")} {
		if err := os.WriteFile(name, data, 0o644); err != nil {
			return "", nil, err
		}
	}
	return base + ".zip", mod, nil
}

func writeZip(name string, m module.Version, files []modzip.File) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	if err := modzip.Create(f, m, files); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// sumLines is go.sum's two lines for module path at version: its zip's
// hash and its go.mod's.
func sumLines(path, version, zipFile string, mod []byte) ([]string, error) {
	h, err := dirhash.HashZip(zipFile, dirhash.Hash1)
	if err != nil {
		return nil, err
	}
	hmod, err := dirhash.Hash1([]string{"go.mod"}, func(string) (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(mod)), nil
	})
	if err != nil {
		return nil, err
	}
	return []string{
		fmt.Sprintf("%s %s %s", path, version, h),
		fmt.Sprintf("%s %s/go.mod %s", path, version, hmod),
	}, nil
}

// fileData is the content of the file named name among files, or nil.
func fileData(files []modzip.File, name string) []byte {
	for _, f := range files {
		if f.Path() == name {
			r, err := f.Open()
			if err != nil {
				return nil
			}
			defer r.Close()
			data, _ := io.ReadAll(r)
			return data
		}
	}
	return nil
}

// replace is files with each of with in place of the file of its name.
func replace(files []modzip.File, with ...dataFile) []modzip.File {
	files = slices.DeleteFunc(slices.Clone(files), func(f modzip.File) bool {
		return slices.ContainsFunc(with, func(d dataFile) bool { return d.path == f.Path() })
	})
	for _, d := range with {
		files = append(files, d)
	}
	return files
}
