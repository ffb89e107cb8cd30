package jsonlines

import (
	"bufio"
	"errors"
	"strings"
	"testing"
)

func TestScanner(t *testing.T) {
	s := NewScanner(strings.NewReader("{\"a\":1}\n\n  \n\t{\"b\":2}  \r\n{\"c\":3}"))
	type got struct {
		n    int
		line string
	}
	var lines []got
	for s.Scan() {
		lines = append(lines, got{s.N(), string(s.Line())})
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	want := []got{{1, `{"a":1}`}, {4, `{"b":2}`}, {5, `{"c":3}`}}
	if len(lines) != len(want) {
		t.Fatalf("got %v, want %v", lines, want)
	}
	for i := range want {
		if lines[i] != want[i] {
			t.Fatalf("line %d: got %v, want %v", i, lines[i], want[i])
		}
	}
}

func TestScannerTooLong(t *testing.T) {
	s := NewScanner(strings.NewReader(strings.Repeat("x", MaxLine+1)))
	if s.Scan() {
		t.Fatal("scanned a line longer than MaxLine")
	}
	if !errors.Is(s.Err(), bufio.ErrTooLong) {
		t.Fatalf("err = %v, want bufio.ErrTooLong", s.Err())
	}
}
