package project

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"regexp"
	"sync"

	yaml "go.yaml.in/yaml/v4"

	"github.com/chainrun/chainrun/pkg/fsutil"
)

// maxConfigFile bounds the config file: settings, read whole.
const maxConfigFile = 1 << 20

// ReadConfigFile reads the config file at path as a mapping of keys. It
// must be a regular file (a FIFO or a device is refused at once, never
// waited on) of at most 1 MiB; an error is a *SettingError naming the
// file, and a YAML error keeps its line and column but never the text
// the decoder quotes: a config file holds tokens and headers, and a slip
// on such a line must not put the value in a CI log.
func ReadConfigFile(path string) (map[string]any, error) {
	data, err := fsutil.ReadRegular(path, maxConfigFile)
	if errors.Is(err, fs.ErrNotExist) {
		if to, lerr := os.Readlink(path); lerr == nil {
			return nil, &SettingError{fmt.Sprintf("config file %s is a link to %s, which does not exist", path, to)}
		}
		return nil, &SettingError{fmt.Sprintf("config file %s not found", path)}
	}
	if err != nil {
		return nil, &SettingError{fmt.Sprintf("config file %s: %v", path, err)}
	}
	var top map[string]any
	if blank(data) {
		// a file of comments sets nothing (init writes one commented)
		return map[string]any{}, nil
	}
	if err := yaml.Load(data, &top); err != nil {
		return nil, &SettingError{fmt.Sprintf("config file %s: %s", path, quotedText().ReplaceAllString(err.Error(), "(a value, not shown)"))}
	}
	return top, nil
}

// quotedText finds what a YAML decoder's error quotes of the text: a
// value (`…`) or an anchor or scalar ('…'); a one-character quote is the
// punctuation it expected (',' or ']') and stays.
var quotedText = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("`[^`]*`|'[^']{2,}'") })

// blank reports whether a YAML text holds nothing but blank lines and
// comments.
func blank(data []byte) bool {
	for line := range bytes.Lines(data) {
		t := bytes.TrimSpace(line)
		if len(t) > 0 && t[0] != '#' {
			return false
		}
	}
	return true
}
