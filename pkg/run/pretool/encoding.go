package pretool

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strings"
	"unicode/utf8"
)

// This file holds the encodings of OCC's read_file and write_file
// (encoding: latin1, ascii, base64, hex; utf-8 by default), as Node
// reads and writes them.

// decodeFile is a file's bytes as text in the encoding named.
func decodeFile(data []byte, encoding string) string {
	switch strings.ToLower(encoding) {
	case "latin1", "binary":
		r := make([]rune, len(data))
		for i, b := range data {
			r[i] = rune(b)
		}
		return string(r)
	case "ascii":
		b := make([]byte, len(data))
		for i, c := range data {
			b[i] = c & 0x7f
		}
		return string(b)
	case "base64":
		return base64.StdEncoding.EncodeToString(data)
	case "hex":
		return hex.EncodeToString(data)
	}
	return string(data)
}

// encodeFile is text as the bytes a file in the encoding named holds; a
// character latin1 or ascii cannot hold, or base64 or hex that does not
// decode, is an error naming it.
func encodeFile(text, encoding string) ([]byte, error) {
	switch strings.ToLower(encoding) {
	case "latin1", "binary", "ascii":
		limit := rune(0xff)
		if strings.EqualFold(encoding, "ascii") {
			limit = 0x7f
		}
		out := make([]byte, 0, len(text))
		for _, r := range text {
			if r > limit || r == utf8.RuneError {
				return nil, fmt.Errorf("%q cannot be written as %s", r, encoding)
			}
			out = append(out, byte(r))
		}
		return out, nil
	case "base64":
		b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(text))
		if err != nil {
			return nil, fmt.Errorf("the content is not base64: %w", err)
		}
		return b, nil
	case "hex":
		b, err := hex.DecodeString(strings.TrimSpace(text))
		if err != nil {
			return nil, fmt.Errorf("the content is not hex: %w", err)
		}
		return b, nil
	}
	return []byte(text), nil
}
