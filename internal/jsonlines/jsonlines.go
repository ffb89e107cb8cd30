// Package jsonlines reads JSON-lines text (one JSON value a line) line by
// line, for the readers of call scripts and test vectors: blank lines are
// skipped, lines are numbered from 1 for error messages, and a line may be
// as long as [MaxLine].
package jsonlines

import (
	"bufio"
	"bytes"
	"io"
)

// MaxLine is the longest line a Scanner reads; a longer one stops it with
// bufio.ErrTooLong.
const MaxLine = 64 << 20

// Scanner reads the non-blank lines of a JSON-lines text.
type Scanner struct {
	sc   *bufio.Scanner
	n    int
	line []byte
}

// NewScanner returns a Scanner reading r.
func NewScanner(r io.Reader) *Scanner {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), MaxLine)
	return &Scanner{sc: sc}
}

// Scan advances to the next non-blank line; it returns false at the end
// of the input or on an error ([Scanner.Err]).
func (s *Scanner) Scan() bool {
	for s.sc.Scan() {
		s.n++
		if line := bytes.TrimSpace(s.sc.Bytes()); len(line) > 0 {
			s.line = line
			return true
		}
	}
	s.line = nil
	return false
}

// Line is the current line without its surrounding white space; it is
// valid until the next call of Scan.
func (s *Scanner) Line() []byte { return s.line }

// N is the current line's number in the input, from 1 (blank lines
// counted).
func (s *Scanner) N() int { return s.n }

// Err is the first error reading the input, nil at its end.
func (s *Scanner) Err() error { return s.sc.Err() }
