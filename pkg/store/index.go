package store

import (
	"bufio"
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/chainrun/chainrun/pkg/fsutil"
)

// The index (<state>/runs.index) lists the saved runs in the order they
// were created, one line each, so that the newest runs, "last" and a
// partial id are found without reading every run's directory (a
// directory of 50,000 runs takes 30 ms only to list, and 1 s to read).
// Its lines are
//
//	chainrun runs index 1                          the header
//	ID AT "NAME" "DIR"                             one a run
//
// AT is when the line was written (Unix milliseconds), never before the
// run's start: a line's runs and every line before it started at or
// before its AT, which tells a reader walking back from the end when no
// older line can hold a newer run. NAME and DIR are the chain's name and
// the directory the run started in (quoted; empty when not known): a
// listing of one project or one chain skips other runs without reading
// them. A line is written before its run's directory appears, so a run
// is never missing from it; a line whose run is gone is skipped.
const indexHeader = "chainrun runs index 1"

// indexFile and stampFile are the index and its stamp in the state
// directory; runs/ is never written by them, so writing them does not
// change what the stamp records.
const (
	indexFile = "runs.index"
	stampFile = "runs.stamp"
)

// entry is one line of the index.
type entry struct {
	id, name, dir string
	at            int64
}

// format is the entry's line.
func (e entry) format() []byte {
	return fmt.Appendf(nil, "%s %d %s %s\n", e.id, e.at, strconv.Quote(e.name), strconv.Quote(e.dir))
}

// errBadIndex is an index line that is not one chainrun writes: the
// index is not trusted, and rebuilt.
var errBadIndex = errors.New("the runs index is damaged")

// parseEntry reads one line (without its newline).
func parseEntry(line []byte) (entry, error) {
	id, rest, ok := bytes.Cut(line, []byte(" "))
	at, rest2, ok2 := bytes.Cut(rest, []byte(" "))
	if !ok || !ok2 || !validID(string(id)) || strings.HasPrefix(string(id), ".") {
		return entry{}, errBadIndex
	}
	e := entry{id: string(id)}
	var err error
	if e.at, err = strconv.ParseInt(string(at), 10, 64); err != nil || e.at < 0 {
		return entry{}, errBadIndex
	}
	name, err := strconv.QuotedPrefix(string(rest2))
	if err != nil || len(rest2) < len(name)+1 || rest2[len(name)] != ' ' {
		return entry{}, errBadIndex
	}
	dir, err := strconv.QuotedPrefix(string(rest2[len(name)+1:]))
	if err != nil || len(name)+1+len(dir) != len(rest2) {
		return entry{}, errBadIndex
	}
	e.name, _ = strconv.Unquote(name)
	e.dir, _ = strconv.Unquote(dir)
	return e, nil
}

func (s *Store) indexPath() string { return filepath.Join(s.dir, indexFile) }

// entryOf is the index line of a run about to appear, written now.
func entryOf(rec Record, at time.Time) entry {
	return entry{id: rec.RunID, at: at.UnixMilli(), name: rec.Name, dir: rec.Dir}
}

// appendEntry adds a run's line at the end of the index (made with its
// header when missing). The caller holds the index's lock.
func (s *Store) appendEntry(e entry) error {
	f, err := fsutil.OpenFileRegular(s.indexPath(), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	line := e.format()
	if fi, err := f.Stat(); err == nil && fi.Size() == 0 {
		line = append([]byte(indexHeader+"\n"), line...)
	}
	_, err = f.Write(line) // one write: a line is never cut by another writer
	if err == nil && s.durability == Strict {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// backward reads the index's lines from the last to the first, one block
// at a time: the newest runs cost what they cost at ten saved runs.
type backward struct {
	f    *os.File
	off  int64  // where the unread part ends
	buf  []byte // read, not yet returned: whole lines after a partial first one
	done bool
}

const indexBlock = 32 << 10

func openBackward(path string) (*backward, error) {
	f, err := fsutil.OpenRegular(path) // a FIFO put in its place is refused at once
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	return &backward{f: f, off: fi.Size()}, nil
}

// next is the line before the ones returned so far, without its newline;
// io.EOF after the header. An index whose last line has no newline (cut
// short) or whose first line is not the header is errBadIndex.
func (b *backward) next() ([]byte, error) {
	for !b.done {
		if len(b.buf) == 0 && b.off > 0 {
			if err := b.more(); err != nil {
				return nil, err
			}
			if b.buf[len(b.buf)-1] != '\n' {
				return nil, errBadIndex
			}
		}
		if len(b.buf) == 0 {
			b.done = true // an empty file: no runs
			break
		}
		body := b.buf[:len(b.buf)-1] // buf always ends with a newline
		j := bytes.LastIndexByte(body, '\n')
		if j < 0 && b.off > 0 {
			if err := b.more(); err != nil {
				return nil, err
			}
			continue
		}
		line := body[j+1:]
		b.buf = b.buf[:j+1]
		if j >= 0 {
			return line, nil
		}
		b.done = true // the first line of the file
		if string(line) != indexHeader {
			return nil, errBadIndex
		}
	}
	return nil, io.EOF
}

// more reads the block before the part read so far.
func (b *backward) more() error {
	n := min(b.off, indexBlock)
	blk := make([]byte, n, int(n)+len(b.buf))
	if _, err := b.f.ReadAt(blk, b.off-n); err != nil {
		return err
	}
	b.off -= n
	b.buf = append(blk, b.buf...)
	return nil
}

func (b *backward) close() { b.f.Close() }

// readIndex reads every line of the index, oldest first.
func (s *Store) readIndex() ([]entry, error) {
	var out []entry
	err := s.eachEntry(func(e entry) bool {
		out = append(out, e)
		return true
	})
	return out, err
}

// eachEntry calls fn with the lines of the index, oldest first, each
// read and decoded only when it is reached, until fn returns false.
func (s *Store) eachEntry(fn func(entry) bool) error {
	f, err := fsutil.OpenRegular(s.indexPath())
	if err != nil {
		return err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 64<<10)
	header := true
	for {
		line, err := r.ReadSlice('\n')
		if err == io.EOF && len(line) == 0 && !header {
			return nil
		}
		if err != nil {
			return cmp.Or(error(errBadIndex), err) // cut short, or a line no index holds
		}
		line = line[:len(line)-1]
		if header {
			if string(line) != indexHeader {
				return errBadIndex
			}
			header = false
			continue
		}
		e, err := parseEntry(line)
		if err != nil {
			return err
		}
		if !fn(e) {
			return nil
		}
	}
}

// indexIDs calls match with the id of every line of the index, without
// decoding the rest of the line: a partial id reads the index (forward,
// one block at a time into one buffer), not the runs. A line with no id
// is errBadIndex.
func (s *Store) indexIDs(match func(id []byte)) error {
	f, err := fsutil.OpenRegular(s.indexPath())
	if err != nil {
		return err
	}
	defer f.Close()
	buf := make([]byte, 0, 256<<10)
	header := true
	for {
		n, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		end := bytes.LastIndexByte(buf, '\n') + 1 // whole lines
		if err == io.EOF && end != len(buf) || err != nil && err != io.EOF {
			return cmp.Or(err, error(errBadIndex)) // a last line cut short
		}
		lines := buf[:end]
		if header && end > 0 {
			first, rest, _ := bytes.Cut(lines, []byte("\n"))
			if string(first) != indexHeader {
				return errBadIndex
			}
			lines, header = rest, false
		}
		for len(lines) > 0 {
			nl := bytes.IndexByte(lines, '\n')
			sp := bytes.IndexByte(lines[:nl], ' ')
			if sp <= 0 {
				return errBadIndex
			}
			match(lines[:sp])
			lines = lines[nl+1:]
		}
		if err == io.EOF {
			return nil
		}
		buf = buf[:copy(buf, buf[end:])]
		if len(buf) == cap(buf) {
			return errBadIndex // a line longer than the buffer: not ours
		}
	}
}
