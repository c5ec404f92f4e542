package livetest

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Replay plays terminal output onto a screen that only grows (the
// scrollback included) and returns its lines: text overwrites, CR and LF
// move the cursor (LF as CR LF, as the terminal's output processing
// does), ESC[nA moves it up, ESC[J and ESC[K erase, SGR colours are
// dropped. Any other escape sequence is an error: the live display must
// use nothing else.
func Replay(out []byte) ([]string, error) {
	screen := [][]rune{{}}
	row, col := 0, 0
	put := func(r rune) {
		line := screen[row]
		for len(line) < col {
			line = append(line, ' ')
		}
		if col < len(line) {
			line[col] = r
		} else {
			line = append(line, r)
		}
		screen[row] = line
		col++
	}
	for i := 0; i < len(out); {
		switch c := out[i]; c {
		case '\r':
			col, i = 0, i+1
			continue
		case '\n':
			row, col, i = row+1, 0, i+1
			if row == len(screen) {
				screen = append(screen, []rune{})
			}
			continue
		case 0x1b:
			if i+1 >= len(out) || out[i+1] != '[' {
				return nil, fmt.Errorf("an escape other than CSI at byte %d", i)
			}
			j := i + 2
			for j < len(out) && (out[j] >= '0' && out[j] <= '9' || out[j] == ';') {
				j++
			}
			if j == len(out) {
				return nil, fmt.Errorf("a cut escape sequence at byte %d", i)
			}
			param := string(out[i+2 : j])
			switch out[j] {
			case 'A':
				n := 1
				if param != "" {
					n, _ = strconv.Atoi(param)
				}
				if row -= n; row < 0 {
					return nil, fmt.Errorf("cursor moved up past the first line at byte %d", i)
				}
			case 'J':
				if param != "" && param != "0" {
					return nil, fmt.Errorf("ESC[%sJ at byte %d", param, i)
				}
				screen = screen[:row+1]
				if col < len(screen[row]) {
					screen[row] = screen[row][:col]
				}
			case 'K':
				if col < len(screen[row]) {
					screen[row] = screen[row][:col]
				}
			case 'm':
			default:
				return nil, fmt.Errorf("unexpected escape ESC[%s%c at byte %d", param, out[j], i)
			}
			i = j + 1
			continue
		}
		r, size := utf8.DecodeRune(out[i:])
		put(r)
		i += size
	}
	lines := make([]string, 0, len(screen))
	for _, l := range screen {
		lines = append(lines, strings.TrimRight(string(l), " "))
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines, nil
}
