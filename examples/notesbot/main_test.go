package main

import (
	"bufio"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/voiceeval/schematools/rtvi/bridge"
)

// The bot says where it listens, answers a harness's handshake and reset,
// and stops when its context ends.
func TestBotServes(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"-addr", "127.0.0.1:0"}, pw) }()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	go io.Copy(io.Discard, pr) //nolint:errcheck // nothing more is printed
	url := strings.TrimSpace(line[strings.LastIndex(line, " "):])
	if !strings.HasPrefix(url, "ws://127.0.0.1:") {
		t.Fatalf("listening line %q", line)
	}
	dctx, dcancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer dcancel()
	conn, err := bridge.Dial(dctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := conn.Reset(dctx); err != nil {
		t.Fatal(err)
	}
	conn.Close()
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	pw.Close()
}
