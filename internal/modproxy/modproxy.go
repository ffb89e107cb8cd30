// Package modproxy lays out this repository's Go modules as a module proxy
// on disk (GOPROXY=file://DIR), at one version, so a test can resolve them
// as a user's go command resolves a release: from the proxy, by version,
// with no replace directive and no go.work.
//
//   - [Write] writes, for each module directory, the proxy's list, .info,
//     .mod and .zip files at the version given.
//   - A module's zip holds the files `git ls-files --cached --others
//     --exclude-standard` lists under its directory (tracked files as they
//     are in the working tree, and new files not ignored), less those of
//     the modules nested in it, as `go mod download` would unpack them.
//   - Module paths must be lowercase (the proxy's case encoding is not
//     done).
package modproxy

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Write lays out the modules in dirs (directories relative to root, "."
// for the root module) into proxyDir at version, and returns their module
// paths, in the order of dirs.
func Write(proxyDir, root, version string, dirs []string) ([]string, error) {
	files, err := listFiles(root)
	if err != nil {
		return nil, err
	}
	paths := make([]string, len(dirs))
	for i, d := range dirs {
		gomod, err := os.ReadFile(filepath.Join(root, d, "go.mod"))
		if err != nil {
			return nil, err
		}
		mod := modulePath(gomod)
		if mod == "" {
			return nil, fmt.Errorf("%s/go.mod names no module", d)
		}
		if strings.ToLower(mod) != mod {
			return nil, fmt.Errorf("module %s: upper-case paths are not supported", mod)
		}
		paths[i] = mod
		zipData, err := moduleZip(root, d, mod, version, files, dirs)
		if err != nil {
			return nil, fmt.Errorf("module %s: %w", mod, err)
		}
		at := filepath.Join(proxyDir, filepath.FromSlash(mod), "@v")
		if err := os.MkdirAll(at, 0o755); err != nil {
			return nil, err
		}
		info := fmt.Sprintf("{\"Version\":%q,\"Time\":%q}\n", version, time.Now().UTC().Format(time.RFC3339))
		for name, data := range map[string][]byte{
			"list":            []byte(version + "\n"),
			version + ".info": []byte(info),
			version + ".mod":  gomod,
			version + ".zip":  zipData,
		} {
			if err := os.WriteFile(filepath.Join(at, name), data, 0o644); err != nil {
				return nil, err
			}
		}
	}
	return paths, nil
}

// listFiles lists the working tree's files git knows or would add, with
// slashes, relative to root.
func listFiles(root string) ([]string, error) {
	cmd := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return nil, fmt.Errorf("git ls-files in %s: %v: %s", root, err, ee.Stderr)
		}
		return nil, fmt.Errorf("git ls-files in %s: %w", root, err)
	}
	var files []string
	for f := range strings.SplitSeq(strings.TrimSuffix(string(out), "\x00"), "\x00") {
		if f != "" {
			files = append(files, f)
		}
	}
	return files, nil
}

// moduleZip zips module mod's files (under dir, outside the other module
// directories nested in it) as mod@version/….
func moduleZip(root, dir, mod, version string, files, dirs []string) ([]byte, error) {
	prefix := ""
	if dir != "." {
		prefix = path.Clean(filepath.ToSlash(dir)) + "/"
	}
	var nested []string
	for _, o := range dirs {
		o = path.Clean(filepath.ToSlash(o))
		if o != "." && o+"/" != prefix && strings.HasPrefix(o+"/", prefix) {
			nested = append(nested, o+"/")
		}
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	n := 0
	for _, f := range files {
		if !strings.HasPrefix(f, prefix) || slices.ContainsFunc(nested, func(p string) bool { return strings.HasPrefix(f, p) }) {
			continue
		}
		st, err := os.Lstat(filepath.Join(root, filepath.FromSlash(f)))
		if errors.Is(err, os.ErrNotExist) {
			continue // deleted in the working tree, not yet in the index
		}
		if err != nil {
			return nil, err
		}
		if !st.Mode().IsRegular() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
		if err != nil {
			return nil, err
		}
		w, err := zw.Create(mod + "@" + version + "/" + strings.TrimPrefix(f, prefix))
		if err != nil {
			return nil, err
		}
		if _, err := w.Write(data); err != nil {
			return nil, err
		}
		n++
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, fmt.Errorf("no file under %s", dir)
	}
	return buf.Bytes(), nil
}

// modulePath reads the module path of a go.mod file.
func modulePath(gomod []byte) string {
	for line := range strings.Lines(string(gomod)) {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
			return strings.Trim(strings.TrimSpace(rest), `"`)
		}
	}
	return ""
}
