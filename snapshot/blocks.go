package snapshot

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
)

// The file is the magic, a version byte, and blocks: each a uvarint
// payload length, the payload, and the CRC-32C of the length and payload
// (4 bytes, little-endian). A block of length 0 ends the file; nothing may
// follow it. No item (the header, a device, a directory's head, an entry)
// spans two blocks, so a reader decodes from a checked block only.
const (
	magic       = "frdsnap"
	version     = 1
	blockTarget = 64 << 10 // a block is flushed once its payload is this long
	blockMax    = 1 << 20  // a reader refuses a longer payload as corrupt
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// ErrFormat is wrapped by every error about a snapshot's bytes: a wrong
// magic or version, a checksum that does not match, a truncated file, a
// record that makes no sense. The error names the byte offset.
var ErrFormat = errors.New("snapshot: not a valid snapshot")

// FormatError is a snapshot's bytes found wrong at Offset.
type FormatError struct {
	Offset int64  // from the start of the file
	Reason string // what is wrong there
}

func (e *FormatError) Error() string {
	return fmt.Sprintf("snapshot: byte %d: %s", e.Offset, e.Reason)
}

func (e *FormatError) Unwrap() error { return ErrFormat }

// blockWriter frames what it is given into checked blocks.
type blockWriter struct {
	w   io.Writer
	buf []byte // the current block's payload
	n   int64  // bytes written so far
	err error  // the first write error: every later call returns it
}

func newBlockWriter(w io.Writer) *blockWriter {
	b := &blockWriter{w: w, buf: make([]byte, 0, blockTarget+4096)}
	b.write(append([]byte(magic), version))
	return b
}

// item ends an item: the block is flushed once it is long enough, so that
// no item spans two blocks.
func (b *blockWriter) item() error {
	if len(b.buf) >= blockTarget {
		b.flush()
	}
	return b.err
}

// flush writes the current payload as a block, if it holds anything.
func (b *blockWriter) flush() {
	if len(b.buf) > 0 {
		b.block(b.buf)
		b.buf = b.buf[:0]
	}
}

// block writes payload as one block (the end marker when empty).
func (b *blockWriter) block(payload []byte) {
	var head [binary.MaxVarintLen64]byte
	h := binary.AppendUvarint(head[:0], uint64(len(payload)))
	sum := crc32.Update(crc32.Checksum(h, castagnoli), castagnoli, payload)
	b.write(h)
	b.write(payload)
	b.write(binary.LittleEndian.AppendUint32(nil, sum))
}

func (b *blockWriter) write(p []byte) {
	if b.err != nil {
		return
	}
	n, err := b.w.Write(p)
	b.n += int64(n)
	b.err = err
}

// close writes what is left and the end marker.
func (b *blockWriter) close() error {
	b.flush()
	b.block(nil)
	return b.err
}

// blockReader reads checked blocks and hands out their payloads.
type blockReader struct {
	r    *bufio.Reader
	pos  int64  // the offset of the next byte to read from r
	cur  []byte // the current payload
	base int64  // the offset of cur[0]
	off  int    // the next item's index in cur
	done bool   // the end marker was read
	buf  []byte // the current block, reused for the next
}

func newBlockReader(r io.Reader) (*blockReader, error) {
	b := &blockReader{r: bufio.NewReaderSize(r, 64<<10)}
	var head [len(magic) + 1]byte
	n, err := io.ReadFull(b.r, head[:])
	b.pos = int64(n)
	switch {
	case err != nil && n < len(magic) || string(head[:len(magic)]) != magic:
		if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
			return nil, err
		}
		return nil, &FormatError{0, "not a snapshot (no magic)"}
	case err != nil:
		return nil, b.readErr(err)
	case head[len(magic)] != version:
		return nil, &FormatError{int64(len(magic)), fmt.Sprintf("version %d, this reader knows version %d", head[len(magic)], version)}
	}
	return b, nil
}

// readErr turns a read's error into a truncation at the current offset,
// keeping errors of the reader itself as they are.
func (b *blockReader) readErr(err error) error {
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return &FormatError{b.pos, "truncated"}
	}
	return err
}

// next makes the next block current. At the end marker it checks that
// nothing follows and returns io.EOF.
func (b *blockReader) next() error {
	if b.done {
		return io.EOF
	}
	start := b.pos
	var head [binary.MaxVarintLen64]byte
	h := head[:0]
	for {
		c, err := b.r.ReadByte()
		if err != nil {
			return b.readErr(err)
		}
		b.pos++
		h = append(h, c)
		if c < 0x80 {
			break
		}
		if len(h) == binary.MaxVarintLen64 {
			return &FormatError{start, "bad block length"}
		}
	}
	n, _ := binary.Uvarint(h)
	if n > blockMax {
		return &FormatError{start, fmt.Sprintf("block of %d bytes, longer than any writer makes", n)}
	}
	// The previous block's bytes are not kept: what is decoded from them
	// is copied out.
	if uint64(cap(b.buf)) < n+4 {
		b.buf = make([]byte, n+4)
	}
	payload := b.buf[:n+4]
	k, err := io.ReadFull(b.r, payload)
	b.pos += int64(k)
	if err != nil {
		return b.readErr(err)
	}
	sum := crc32.Update(crc32.Checksum(h, castagnoli), castagnoli, payload[:n])
	if binary.LittleEndian.Uint32(payload[n:]) != sum {
		return &FormatError{start, "checksum mismatch"}
	}
	b.cur, b.base, b.off = payload[:n], start+int64(len(h)), 0
	if n == 0 {
		b.done = true
		if _, err := b.r.ReadByte(); err != io.EOF {
			if err != nil {
				return err
			}
			return &FormatError{b.pos, "data after the end marker"}
		}
		return io.EOF
	}
	return nil
}

// item returns the rest of the current block, moving to the next block
// when this one is used up; io.EOF at the end marker.
func (b *blockReader) item() ([]byte, error) {
	for b.off >= len(b.cur) {
		if err := b.next(); err != nil {
			return nil, err
		}
	}
	return b.cur[b.off:], nil
}

// used moves past the n bytes of an item read from item's slice.
func (b *blockReader) used(n int) { b.off += n }

// offset is the file offset of the byte i bytes into the current item.
func (b *blockReader) offset(i int) int64 { return b.base + int64(b.off+i) }
