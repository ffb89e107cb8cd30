package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/voiceeval/schematools/internal/clip"
)

// The go-sdk's stdio transport (v1.8.0) decodes stdin with one streaming
// json.Decoder: a malformed line makes Read fail, and any Read error ends
// the session (no reply; the process exits). So does a line that is JSON
// but no JSON-RPC message. guardedStdio sits in front of it: it reads
// newline-delimited frames itself, answers a malformed one with a JSON-RPC
// -32700 Parse error (an invalid message with -32600 Invalid Request), id
// null, as JSON-RPC 2.0 §5.1 asks, drops it, and passes every other frame
// on to the SDK's transport unchanged, so the session goes on.

// maxFrame bounds one inbound frame, as the SDK's stdio transport does
// (mcp.DefaultMaxLineLength, 16 MiB); a longer line is answered -32700 and
// skipped.
const maxFrame = mcp.DefaultMaxLineLength

// guardedStdio returns the transport that serves MCP over in and out, with
// the frame guard in front of the SDK's own newline-delimited transport.
func guardedStdio(in io.Reader, out io.Writer) mcp.Transport {
	w := &lockedWriter{w: out, large: &largeFrames{}}
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(guardFrames(in, pw, w, maxFrame, w.large)) }()
	// The guard bounds the frames; the SDK needs no cap of its own.
	return &mcp.IOTransport{Reader: pr, Writer: w, MaxLineLength: -1}
}

// lockedWriter serializes writes, so that an error the guard writes never
// lands inside a message the SDK writes (each is one Write call).
type lockedWriter struct {
	mu    sync.Mutex
	w     io.Writer
	large *largeFrames // nil: none tracked
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	n, err := l.w.Write(p)
	l.mu.Unlock()
	l.large.answered()
	return n, err
}

// largeFrameBytes is the size from which a frame's memory is handed back
// to the operating system once it has been answered.
const largeFrameBytes = 1 << 20

// returnDelay is how long after the answer to a large frame the memory
// is handed back: the handler's last references are gone by then.
const returnDelay = 200 * time.Millisecond

// largeFrames hands the memory of large frames back to the operating
// system once they are answered. A 16 MiB call passes through several
// copies (the line, its decoded message, the tool's arguments, ...);
// without this, the Go runtime keeps that peak (hundreds of MiB for a few
// calls in a row) for minutes. What stays is the SDK's own decoder buffer,
// which keeps the capacity of the largest frame it has read.
type largeFrames struct {
	pending atomic.Int64 // large frames passed on and not yet answered
	timer   atomic.Pointer[time.Timer]
	free    func() // nil: debug.FreeOSMemory
}

// passed records a frame of n bytes passed on to the SDK.
func (f *largeFrames) passed(n int) {
	if f != nil && n >= largeFrameBytes {
		f.pending.Add(1)
	}
}

// answered is a write of the SDK's: when large frames were pending, their
// memory is returned a little later (once, however many writes follow).
func (f *largeFrames) answered() {
	if f == nil || f.pending.Load() == 0 {
		return
	}
	f.pending.Store(0)
	free := f.free
	if free == nil {
		free = debug.FreeOSMemory
	}
	t := time.AfterFunc(returnDelay, free)
	if old := f.timer.Swap(t); old != nil {
		old.Stop()
	}
}

// Close does not close the underlying writer (stdout).
func (l *lockedWriter) Close() error { return nil }

// guardFrames copies the valid frames of in to sdk, one line each, and
// answers the others on out. It returns at the end of in, or when sdk or
// out fails.
func guardFrames(in io.Reader, sdk io.Writer, out io.Writer, limit int, large *largeFrames) error {
	r := bufio.NewReaderSize(in, 64<<10)
	for {
		line, tooLong, err := readFrame(r, limit)
		if len(bytes.TrimSpace(line)) > 0 || tooLong {
			if reply := check(line, tooLong, limit); reply != nil {
				if _, werr := out.Write(reply); werr != nil {
					return werr
				}
			} else if werr := pass(sdk, bytes.TrimSpace(line)); werr != nil {
				return werr
			} else {
				large.passed(len(line))
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
}

// pass writes one frame and its newline to the SDK, without copying the
// frame to append the newline.
func pass(sdk io.Writer, frame []byte) error {
	if _, err := sdk.Write(frame); err != nil {
		return err
	}
	_, err := sdk.Write([]byte{'\n'})
	return err
}

// readFrame reads one line (without its newline). A line longer than limit
// is read to its end and dropped: tooLong is set and line is empty.
func readFrame(r *bufio.Reader, limit int) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > limit+1 { // +1: the newline
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimSuffix(line, []byte("\n")), tooLong, err
	}
}

// check returns the error response for a frame the SDK's transport would
// end the session on, or nil for a frame to pass on.
func check(line []byte, tooLong bool, limit int) []byte {
	if tooLong {
		return errorReply(jsonrpc.CodeParseError, fmt.Sprintf("Parse error: a frame longer than %d bytes", limit))
	}
	line = bytes.TrimSpace(line)
	if !json.Valid(line) {
		var v any
		err := json.Unmarshal(line, &v) // says where the JSON breaks
		return errorReply(jsonrpc.CodeParseError, fmt.Sprintf("Parse error: %v", err))
	}
	msgs := []json.RawMessage{line}
	if line[0] == '[' {
		if err := json.Unmarshal(line, &msgs); err != nil || len(msgs) == 0 {
			return errorReply(jsonrpc.CodeInvalidRequest, "Invalid Request: an empty batch")
		}
	}
	for _, m := range msgs {
		if _, err := jsonrpc.DecodeMessage(m); err != nil {
			return errorReply(jsonrpc.CodeInvalidRequest, "Invalid Request: "+err.Error())
		}
	}
	return nil
}

// errorReply is a JSON-RPC error response with id null (the id of a frame
// that could not be read), one line.
func errorReply(code int64, message string) []byte {
	b, _ := json.Marshal(struct {
		JSONRPC string        `json:"jsonrpc"`
		ID      any           `json:"id"`
		Error   jsonrpc.Error `json:"error"`
	}{"2.0", nil, jsonrpc.Error{Code: code, Message: clip.String(message)}})
	return append(b, '\n')
}
