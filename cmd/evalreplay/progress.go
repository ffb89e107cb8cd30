package main

import (
	"fmt"
	"io"
	"os"
	"strings"
)

// progress draws a progress bar on a terminal; on anything else it draws
// nothing.
type progress struct {
	w  io.Writer
	on bool
}

func newProgress(w io.Writer) *progress {
	f, ok := w.(*os.File)
	if !ok {
		return &progress{}
	}
	info, err := f.Stat()
	return &progress{w: w, on: err == nil && info.Mode()&os.ModeCharDevice != 0}
}

// update is a replay.GoldAll progress callback.
func (p *progress) update(done, total int) {
	if !p.on || total == 0 {
		return
	}
	const width = 30
	n := done * width / total
	fmt.Fprintf(p.w, "\r[%s%s] %d/%d", strings.Repeat("#", n), strings.Repeat(".", width-n), done, total)
}

func (p *progress) finish() {
	if p.on {
		fmt.Fprint(p.w, "\r\033[K")
	}
}
