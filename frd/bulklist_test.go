//go:build linux || darwin || windows

package frd

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// fakeBulk answers getattrlistbulk from prepared calls: each the records
// of one call, or an error; then 0 records (the end).
type fakeBulk struct {
	calls   [][][]byte
	errs    []error
	stats   []string // names stat'ed, in order
	plained bool
}

func (f *fakeBulk) lists(keepIDs bool) bulkCalls {
	return bulkCalls{
		bulk: func(buf []byte) (int, error) {
			if len(f.errs) > 0 && f.errs[0] != nil {
				err := f.errs[0]
				f.errs = f.errs[1:]
				return 0, err
			}
			if len(f.errs) > 0 {
				f.errs = f.errs[1:]
			}
			if len(f.calls) == 0 {
				return 0, nil
			}
			recs := f.calls[0]
			f.calls = f.calls[1:]
			clear(buf)
			off := 0
			for _, r := range recs {
				off += copy(buf[off:], r)
			}
			return len(recs), nil
		},
		stat: func(e *Entry) (bool, error) {
			f.stats = append(f.stats, e.Name)
			*e = Entry{Name: e.Name, Size: 42, ModTimeNanos: 7, FileID: 99, Links: 1, Allocated: 512, Device: 3}
			return true, nil
		},
		plain: func(dst []Entry) ([]Entry, error) {
			f.plained = true
			return append(dst, Entry{Name: "p", Size: 1, FileID: 5}), nil
		},
		keepIDs: keepIDs,
	}
}

// recordWithout is a regular file's full record with one attribute left
// out, as a volume that does not support it returns it.
func recordWithout(name string, commonOut, fileOut uint32) []byte {
	common := uint32(bulkCommon&^attrCmnError) &^ commonOut
	file := uint32(bulkFile) &^ fileOut
	r := newAttrRecord(attrSet{common: common, file: file}).name()
	if common&attrCmnDevID != 0 {
		r.u32(0x01000004)
	}
	r.u32(vReg)
	if common&attrCmnModTime != 0 {
		r.ts(1700000000, 1)
	}
	if common&attrCmnChgTime != 0 {
		r.ts(1700000001, 2)
	}
	if common&attrCmnFileID != 0 {
		r.u64(1234)
	}
	if file&attrFileLinkCount != 0 {
		r.u32(2)
	}
	if file&attrFileAllocSize != 0 {
		r.u64(8192)
	}
	if file&attrFileDataLength != 0 {
		r.u64(5000)
	}
	return r.finish(name)
}

// TestBulkMissingAttributes: a regular file whose record lacks one of the
// attributes its Entry takes is stat'ed; the complete ones are not.
func TestBulkMissingAttributes(t *testing.T) {
	for _, out := range []struct {
		name         string
		common, file uint32
	}{
		{"DEVID", attrCmnDevID, 0}, {"MODTIME", attrCmnModTime, 0}, {"CHGTIME", attrCmnChgTime, 0},
		{"FILEID", attrCmnFileID, 0}, {"LINKCOUNT", 0, attrFileLinkCount}, {"ALLOCSIZE", 0, attrFileAllocSize},
		{"DATALENGTH", 0, attrFileDataLength},
	} {
		f := &fakeBulk{calls: [][][]byte{{fileRecord("whole", false), recordWithout("partial", out.common, out.file)}}}
		var l Lister
		buf, recs := make([]byte, 4096), []attrEntry(nil)
		es, err := l.bulkList(nil, &buf, &recs, f.lists(true), "d")
		if err != nil || !slices.Equal(names(es), []string{"whole", "partial"}) {
			t.Fatalf("without %s: %q, %v", out.name, names(es), err)
		}
		if !slices.Equal(f.stats, []string{"partial"}) {
			t.Errorf("without %s: stat'ed %q, want [partial]", out.name, f.stats)
		}
		if es[1].Size != 42 || es[0].Size != 5000 {
			t.Errorf("without %s: sizes %d and %d, want 5000 from the record and 42 from the stat", out.name, es[0].Size, es[1].Size)
		}
		if e := es[0]; e.Allocated != 8192 || e.Links != 3 || e.Device != 0x01000004 {
			t.Errorf("without %s: the whole record gave %d bytes allocated, %d links, device %#x; want 8192, 3, 0x1000004", out.name, e.Allocated, e.Links, e.Device)
		}
	}
}

// TestBulkFileIDRule: one rule for FileID, whether it comes from the
// record, a stat of an incomplete record, or the by-names listing: kept
// only on a volume whose ids persist.
func TestBulkFileIDRule(t *testing.T) {
	for _, keep := range []bool{true, false} {
		f := &fakeBulk{calls: [][][]byte{{fileRecord("rec", false), recordWithout("stat", attrCmnModTime, 0)}}}
		var l Lister
		buf, recs := make([]byte, 4096), []attrEntry(nil)
		es, err := l.bulkList(nil, &buf, &recs, f.lists(keep), "d")
		if err != nil || len(es) != 2 {
			t.Fatalf("%q, %v", names(es), err)
		}
		f2 := &fakeBulk{errs: []error{darwinENOTSUP}}
		plain, err := l.bulkList(nil, &buf, &recs, f2.lists(keep), "d")
		if err != nil || len(plain) != 1 {
			t.Fatalf("ENOTSUP: %q, %v", names(plain), err)
		}
		for _, e := range append(es, plain...) {
			if (e.FileID != 0) != keep {
				t.Errorf("keepIDs %v: %s has FileID %d", keep, e.Name, e.FileID)
			}
		}
	}
}

// TestBulkUnnamedRecord: a record with an empty name (xnu packs "" when
// it has none) is left out; the others are kept, and the listing ends
// with an error that wraps ErrMalformed and names the directory.
func TestBulkUnnamedRecord(t *testing.T) {
	f := &fakeBulk{calls: [][][]byte{{fileRecord("a", false), fileRecord("", false), fileRecord("b", true)}, {fileRecord("c", false)}}}
	var l Lister
	buf, recs := make([]byte, 4096), []attrEntry(nil)
	es, err := l.bulkList(nil, &buf, &recs, f.lists(true), "dir")
	if !slices.Equal(names(es), []string{"a", "b", "c"}) {
		t.Errorf("kept %q, want [a b c]", names(es))
	}
	if !errors.Is(err, ErrMalformed) || err == nil || !strings.Contains(err.Error(), "dir") {
		t.Errorf("error %v, want one wrapping ErrMalformed naming dir", err)
	}
}

// TestBulkSearchDenied: a directory that may be read but not searched
// answers EACCES to getattrlistbulk; it is listed by names, each entry
// then stat'ed (and failing) on its own, as on Linux. EACCES after some
// records is an error.
func TestBulkSearchDenied(t *testing.T) {
	f := &fakeBulk{errs: []error{darwinEACCES}}
	var l Lister
	buf, recs := make([]byte, 4096), []attrEntry(nil)
	es, err := l.bulkList(nil, &buf, &recs, f.lists(true), "d")
	if err != nil || !f.plained || !slices.Equal(names(es), []string{"p"}) {
		t.Errorf("EACCES first: %q, %v, by names %v; want [p] by names", names(es), err, f.plained)
	}
	// After a first call of nothing but a record without a name, too.
	f = &fakeBulk{calls: [][][]byte{{fileRecord("", false)}}, errs: []error{nil, darwinEACCES}}
	es, err = l.bulkList(nil, &buf, &recs, f.lists(true), "d")
	if !errors.Is(err, darwinEACCES) || f.plained {
		t.Errorf("EACCES on the second call: %q, %v, by names %v; want the error", names(es), err, f.plained)
	}
	f = &fakeBulk{calls: [][][]byte{{fileRecord("a", false)}}, errs: []error{nil, darwinEACCES}}
	es, err = l.bulkList(nil, &buf, &recs, f.lists(true), "d")
	if !errors.Is(err, darwinEACCES) || f.plained || !slices.Equal(names(es), []string{"a"}) {
		t.Errorf("EACCES later: %q, %v, by names %v; want [a] and the error", names(es), err, f.plained)
	}
}
