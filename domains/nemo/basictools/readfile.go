package basictools

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/voiceeval/schematools/domains/nemo/internal/nemostate"
	"github.com/voiceeval/schematools/internal/pyvalue"
	"github.com/voiceeval/schematools/tool"
)

// NewReadFile builds ReadFileTool, which returns a text file's content as
// Python's open(path, "r").read() does (UTF-8, universal newlines), with
// file_path relative to root. A path that would leave root (absolute, or
// climbing above it with "..") is refused with the PermissionError text
// "[Errno 13] Permission denied: '<path>'" where the original would read
// any file the bot can. Failures are results, {"error": str(exc)}, as in
// the original.
func NewReadFile(root fs.FS) (tool.Tool, error) {
	if root == nil {
		return nil, errors.New("basictools: ReadFileTool needs a root")
	}
	sp, err := spec(SchemaDomain, NameReadFile, nil, "file_path")
	if err != nil {
		return nil, err
	}
	sp.Run = func(_ context.Context, a map[string]any) (any, error) {
		p := a["file_path"]
		content, err := readFile(root, p)
		if err != nil {
			return nemostate.Of("error", err.Error()), nil
		}
		return nemostate.Of("file_path", p, "content", content), nil
	}
	return nemostate.NewTool(sp), nil
}

// osError is the text of an OSError with a file name.
func osError(errno int, text, name string) error {
	return fmt.Errorf("[Errno %d] %s: %s", errno, text, pyvalue.Repr(name))
}

// pathString is str(pathlib.Path(p)): empty and "." parts dropped, the
// parts joined by "/", "." when nothing is left.
func pathString(p string) (string, []string, bool) {
	abs := strings.HasPrefix(p, "/")
	var parts []string
	for _, part := range strings.Split(p, "/") {
		if part != "" && part != "." {
			parts = append(parts, part)
		}
	}
	s := strings.Join(parts, "/")
	switch {
	case abs && strings.HasPrefix(p, "//") && !strings.HasPrefix(p, "///"):
		s = "//" + s
	case abs:
		s = "/" + s
	case s == "":
		s = "."
	}
	return s, parts, abs
}

// readFile reads p under root as the original reads it.
func readFile(root fs.FS, p any) (string, error) {
	s, ok := p.(string)
	if !ok {
		return "", fmt.Errorf("expected str, bytes or os.PathLike object, not %s", nemostate.TypeName(p))
	}
	if strings.ContainsRune(s, 0) {
		return "", errors.New("embedded null byte")
	}
	name, parts, abs := pathString(s)
	if abs {
		return "", osError(13, "Permission denied", name)
	}
	var stack []string
	for i, part := range parts {
		last := i == len(parts)-1
		if part == ".." {
			if len(stack) == 0 {
				return "", osError(13, "Permission denied", name)
			}
			stack = stack[:len(stack)-1]
			continue
		}
		stack = append(stack, part)
		info, err := fs.Stat(root, path.Join(stack...))
		switch {
		case err != nil:
			return "", osError(2, "No such file or directory", name)
		case !info.IsDir() && !last:
			return "", osError(20, "Not a directory", name)
		}
	}
	target := "."
	if len(stack) > 0 {
		target = path.Join(stack...)
	}
	info, err := fs.Stat(root, target)
	if err != nil {
		return "", osError(2, "No such file or directory", name)
	}
	if info.IsDir() {
		return "", osError(21, "Is a directory", name)
	}
	data, err := fs.ReadFile(root, target)
	if err != nil {
		return "", osError(5, "Input/output error", name)
	}
	if err := checkUTF8(data); err != nil {
		return "", err
	}
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	return strings.ReplaceAll(text, "\r", "\n"), nil
}

// checkUTF8 returns CPython's UnicodeDecodeError text for the first
// invalid UTF-8 sequence in b, or nil.
func checkUTF8(b []byte) error {
	for i := 0; i < len(b); {
		c := b[i]
		if c < 0x80 {
			i++
			continue
		}
		var n int
		lo, hi := byte(0x80), byte(0xBF)
		switch {
		case c >= 0xC2 && c <= 0xDF:
			n = 2
		case c == 0xE0:
			n, lo = 3, 0xA0
		case c == 0xED:
			n, hi = 3, 0x9F
		case c >= 0xE1 && c <= 0xEF:
			n = 3
		case c == 0xF0:
			n, lo = 4, 0x90
		case c == 0xF4:
			n, hi = 4, 0x8F
		case c >= 0xF1 && c <= 0xF3:
			n = 4
		default:
			return decodeError(b[i], i, i+1, "invalid start byte")
		}
		for j := 1; j < n; j++ {
			if i+j >= len(b) {
				return decodeError(b[i], i, len(b), "unexpected end of data")
			}
			x := b[i+j]
			if j == 1 && (x < lo || x > hi) || j > 1 && (x < 0x80 || x > 0xBF) {
				return decodeError(b[i], i, i+j, "invalid continuation byte")
			}
		}
		i += n
	}
	return nil
}

func decodeError(c byte, start, end int, reason string) error {
	if end-start == 1 {
		return fmt.Errorf("'utf-8' codec can't decode byte 0x%02x in position %d: %s", c, start, reason)
	}
	return fmt.Errorf("'utf-8' codec can't decode bytes in position %d-%d: %s", start, end-1, reason)
}
