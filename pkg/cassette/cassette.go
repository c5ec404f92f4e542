package cassette

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"go.yaml.in/yaml/v4"

	"github.com/chainrun/chainrun/pkg/fsutil"
)

// Version is the cassette format this package writes and reads.
const Version = 1

// Cassette is one file of recordings, shared by the cases of a test file
// (safe for concurrent use by their sessions).
type Cassette struct {
	// Path is the file it is read from and saved to.
	Path string
	// dir and name are Path as an os.Root and a name inside it.
	dir, name string

	mu    sync.Mutex
	recs  []*Recording
	used  map[*Recording]bool
	dirty bool
	// forgotten are the cases whose recordings ModeAll dropped: a case
	// run once per model, or repeated, drops them once, not the
	// recordings its other runs have just made.
	forgotten map[string]bool
}

// Recording is one model request and the answer it got.
type Recording struct {
	// Case is the test case that recorded it, Step the asker (a step id,
	// outer/inner for a called chain's step, "decision STATE"), Seq its
	// place among that step's requests in the case (from 1).
	Case     string   `yaml:"case"`
	Step     string   `yaml:"step"`
	Seq      int      `yaml:"seq"`
	Request  Request  `yaml:"request"`
	Response Response `yaml:"response"`

	key string
}

// file is the cassette's YAML document.
type file struct {
	Version    int          `yaml:"version"`
	Recordings []*Recording `yaml:"recordings"`
}

// header opens every cassette file, for whoever opens it in a review.
const header = "# Model answers recorded by chainrun test at the provider level: no\n" +
	"# headers, URLs or keys. Review changes like code; re-record with\n" +
	"# chainrun test --record=all (or --record=missing for new requests).\n"

// maxCassette bounds a cassette file, read whole.
const maxCassette = 256 << 20

// Load reads the cassette at path; a file that does not exist is an empty
// cassette (the first recording creates it). It is confined to path's
// own directory: LoadIn(filepath.Dir(path), filepath.Base(path)).
func Load(path string) (*Cassette, error) {
	return LoadIn(filepath.Dir(path), filepath.Base(path))
}

// LoadIn reads the cassette name (a local path) inside dir, and saves it
// there: both go through an os.Root of dir, so neither ".." nor a
// symbolic link takes a read or a recording out of it. A FIFO or a device
// at name is refused at once.
func LoadIn(dir, name string) (*Cassette, error) {
	path := filepath.Join(dir, name)
	if !filepath.IsLocal(name) {
		return nil, fmt.Errorf("cassette %s: not a path inside %s", name, dir)
	}
	c := &Cassette{Path: path, dir: dir, name: name, used: map[*Recording]bool{}}
	var data []byte
	err := c.inRoot(func(root *os.Root) (err error) {
		data, err = fsutil.ReadRegularIn(root, name, maxCassette)
		return err
	})
	if errors.Is(err, fs.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return nil, err
	}
	var f file
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if f.Version != 0 && f.Version != Version {
		return nil, fmt.Errorf("%s: cassette version %d; this chainrun reads version %d", path, f.Version, Version)
	}
	for i, r := range f.Recordings {
		if r == nil || r.Step == "" || r.Request.Provider == "" || r.Request.Model == "" {
			return nil, fmt.Errorf("%s:%d: recording %d needs step, request.provider and request.model", path, recordingLine(data, i), i+1)
		}
		r.key = r.Request.Key()
	}
	c.recs = f.Recordings
	return c, nil
}

// recordingLine is the line recording i starts at in a cassette's text.
func recordingLine(data []byte, i int) int {
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 {
		return 1
	}
	root := doc.Content[0]
	for k := 0; k+1 < len(root.Content); k += 2 {
		if recs := root.Content[k+1]; root.Content[k].Value == "recordings" && i < len(recs.Content) {
			return recs.Content[i].Line
		}
	}
	return 1
}

// Recordings are the cassette's recordings, in file order.
func (c *Cassette) Recordings() []*Recording {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.recs)
}

// Unused are the recordings no session played back or kept, for
// --check: a recording nothing asks for any more is dead weight that
// hides which answers the chain really depends on.
func (c *Cassette) Unused() []*Recording {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []*Recording
	for _, r := range c.recs {
		if !c.used[r] {
			out = append(out, r)
		}
	}
	return out
}

// Changed reports whether recordings were added or replaced since Load.
func (c *Cassette) Changed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.dirty
}

// Save writes the cassette when it changed, atomically (a temporary file
// renamed over the old), recordings sorted by case, step and turn (and
// numbered so) the same way whatever order parallel requests came in,
// so that a re-recording shows only real changes in a diff.
func (c *Cassette) Save() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.dirty {
		return nil
	}
	recs := slices.Clone(c.recs)
	slices.SortStableFunc(recs, func(a, b *Recording) int {
		if n := strings.Compare(a.Case, b.Case); n != 0 {
			return n
		}
		if n := strings.Compare(a.Step, b.Step); n != 0 {
			return n
		}
		// a tool loop's turns each hold more messages than the one
		// before; requests asked at once (a loop's items) hold as many,
		// and are put in the order of their keys, not of their arrival
		if n := len(a.Request.Messages) - len(b.Request.Messages); n != 0 {
			return n
		}
		if a.key != b.key {
			return strings.Compare(a.key, b.key)
		}
		return a.Seq - b.Seq
	})
	for i, r := range recs {
		r.Seq = 1
		if i > 0 && recs[i-1].Case == r.Case && recs[i-1].Step == r.Step {
			r.Seq = recs[i-1].Seq + 1
		}
	}
	var buf bytes.Buffer
	buf.WriteString(header)
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(file{Version: Version, Recordings: recs}); err != nil {
		return err
	}
	if err := enc.Close(); err != nil {
		return err
	}
	err := c.inRoot(func(root *os.Root) error {
		if d := filepath.Dir(c.name); d != "." {
			if err := root.MkdirAll(d, 0o755); err != nil {
				return err
			}
		}
		return fsutil.WriteFileIn(root, c.name, buf.Bytes(), 0)
	})
	if err != nil {
		return err
	}
	c.dirty = false
	return nil
}

// inRoot calls do with an os.Root of the cassette's directory; its
// errors name the cassette, and say so when a link leads out.
func (c *Cassette) inRoot(do func(root *os.Root) error) error {
	root, err := os.OpenRoot(c.dir)
	if err != nil {
		return err
	}
	defer root.Close()
	err = do(root)
	var nr *fsutil.NotRegularError
	switch {
	case err == nil, errors.Is(err, fs.ErrNotExist):
		return err
	case fsutil.Escapes(err):
		return fmt.Errorf("cassette %s: a symbolic link on the path leads out of %s, where the cassette must stay", c.Path, c.dir)
	case errors.As(err, &nr):
		return fmt.Errorf("cassette %s is %s, not a regular file", c.Path, fsutil.Kind(nr.Mode))
	}
	return fmt.Errorf("cassette %s: %w", c.Path, unwrapPath(err))
}

// unwrapPath drops the path an fs error repeats.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// add keeps a new recording.
func (c *Cassette) add(r *Recording) {
	c.mu.Lock()
	defer c.mu.Unlock()
	r.key = r.Request.Key()
	c.recs = append(c.recs, r)
	c.used[r] = true
	c.dirty = true
}

// forget drops the recordings of a case (ModeAll records it anew), once.
func (c *Cassette) forget(name string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.forgotten[name] {
		return
	}
	if c.forgotten == nil {
		c.forgotten = map[string]bool{}
	}
	c.forgotten[name] = true
	n := len(c.recs)
	c.recs = slices.DeleteFunc(c.recs, func(o *Recording) bool { return o.Case == name })
	c.dirty = c.dirty || len(c.recs) != n
}
