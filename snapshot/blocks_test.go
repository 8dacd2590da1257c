package snapshot

import (
	"bytes"
	"errors"
	"io"
	"testing"
)

// blockFile frames each payload as a block of its own, after the magic
// and version, and the end marker; it returns the file and where each
// block and the end marker begin.
func blockFile(t *testing.T, payloads ...[]byte) ([]byte, []int64) {
	t.Helper()
	var buf bytes.Buffer
	bw := newBlockWriter(&buf)
	var starts []int64
	for _, p := range payloads {
		starts = append(starts, bw.n)
		bw.buf = append(bw.buf, p...)
		bw.flush()
	}
	starts = append(starts, bw.n)
	if err := bw.close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), starts
}

// readBlocks reads every block of file, its payloads, until the end
// marker or an error.
func readBlocks(file []byte) ([][]byte, error) {
	br, err := newBlockReader(bytes.NewReader(file))
	if err != nil {
		return nil, err
	}
	var got [][]byte
	for {
		p, err := br.item()
		if err == io.EOF {
			return got, nil
		}
		if err != nil {
			return got, err
		}
		got = append(got, bytes.Clone(p))
		br.used(len(p))
	}
}

// blockBytes is n bytes that differ from block to block.
func blockBytes(n int, seed byte) []byte {
	p := make([]byte, n)
	for i := range p {
		p[i] = seed + byte(i)
	}
	return p
}

// TestBlockFlushAtTarget: an item ends its block once the payload is
// blockTarget bytes long, not a byte before.
func TestBlockFlushAtTarget(t *testing.T) {
	var buf bytes.Buffer
	bw := newBlockWriter(&buf)
	head := buf.Len()
	bw.buf = append(bw.buf, blockBytes(blockTarget-1, 1)...)
	if err := bw.item(); err != nil || len(bw.buf) != blockTarget-1 || buf.Len() != head {
		t.Fatalf("at %d bytes: %v, %d bytes held, %d written", blockTarget-1, err, len(bw.buf), buf.Len()-head)
	}
	bw.buf = append(bw.buf, 0)
	if err := bw.item(); err != nil || len(bw.buf) != 0 || buf.Len() <= head+blockTarget {
		t.Fatalf("at %d bytes: %v, %d bytes held, %d written", blockTarget, err, len(bw.buf), buf.Len()-head)
	}
	// The block flushed by the last item is not followed by an empty one
	// before the end marker: the file reads back whole.
	if err := bw.close(); err != nil {
		t.Fatal(err)
	}
	got, err := readBlocks(buf.Bytes())
	if err != nil || len(got) != 1 || len(got[0]) != blockTarget {
		t.Errorf("read back: %d blocks, %v", len(got), err)
	}
}

// TestBlockSizes: blocks read back whatever their order of sizes (a
// longer one after a shorter, by less than a checksum, reuses nothing
// too short), up to blockMax bytes; one longer is refused where it
// begins.
func TestBlockSizes(t *testing.T) {
	want := [][]byte{blockBytes(100, 1), blockBytes(103, 2), blockBytes(1, 3), blockBytes(blockMax, 4), blockBytes(10, 5)}
	file, _ := blockFile(t, want...)
	got, err := readBlocks(file)
	if err != nil || len(got) != len(want) {
		t.Fatalf("%d blocks read back, %v", len(got), err)
	}
	for i := range want {
		if !bytes.Equal(got[i], want[i]) {
			t.Errorf("block %d: %d bytes read back, %d written", i, len(got[i]), len(want[i]))
		}
	}
	file, starts := blockFile(t, blockBytes(10, 1), blockBytes(blockMax+1, 2))
	_, err = readBlocks(file)
	checkFormatError(t, "a block of blockMax+1 bytes", err, starts[1], "longer than any writer makes")
}

// checkFormatError checks that err is a FormatError at offset saying why.
func checkFormatError(t *testing.T, what string, err error, offset int64, why string) {
	t.Helper()
	var fe *FormatError
	if !errors.As(err, &fe) || fe.Offset != offset || !bytes.Contains([]byte(fe.Reason), []byte(why)) {
		t.Errorf("%s: %v, want a FormatError at byte %d: %s", what, err, offset, why)
	}
}

// TestBlockErrorOffsets: each way a file of blocks can be wrong is
// refused at the byte where it is.
func TestBlockErrorOffsets(t *testing.T) {
	file, starts := blockFile(t, blockBytes(40, 1), blockBytes(300, 2))
	_, err := readBlocks(append(bytes.Clone(file), 'x'))
	checkFormatError(t, "a byte after the end marker", err, int64(len(file)), "data after the end marker")

	bad := bytes.Clone(file)
	bad[starts[1]+5] ^= 1 // in the second block's payload
	_, err = readBlocks(bad)
	checkFormatError(t, "a byte of the second block changed", err, starts[1], "checksum mismatch")

	cut := starts[1] + 100
	_, err = readBlocks(file[:cut])
	checkFormatError(t, "cut in the second block", err, cut, "truncated")
	_, err = readBlocks(file[:starts[1]+1]) // within its two-byte length
	checkFormatError(t, "cut in the second block's length", err, starts[1]+1, "truncated")

	// An item's offset: the second block's payload begins after its
	// two-byte length.
	br, err := newBlockReader(bytes.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	p, _ := br.item()
	br.used(len(p))
	if _, err := br.item(); err != nil {
		t.Fatal(err)
	}
	br.used(5)
	if got, want := br.offset(3), starts[1]+2+8; got != want {
		t.Errorf("offset 3 bytes into an item 5 bytes into the second block: %d, want %d", got, want)
	}
}
