package schematools_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/voiceeval/schematools/internal/modproxy"
	"github.com/voiceeval/schematools/internal/repotree"
)

// A module outside the repository can require the core and a provider
// adapter by version and, with public packages only, build a custom
// domain with two tools, serve it as an RTVI bot on provider/openai and
// evaluate one scenario with harness.Evaluate to a successful verdict:
// the test lays out every module of the working tree as a module proxy on
// disk (GOPROXY=file://…) at the version the nested modules require,
// writes testdata/outside into a temporary directory as a module of its
// own (no replace, no go.work) and runs it. Third-party modules come from
// the machine's module cache, through its download directory.
func TestOutsideModule(t *testing.T) {
	goCmd := goTool(t)
	version := requiredVersion(t, "provider/openai/go.mod")
	dirs, err := repotree.Modules(".")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	proxy := filepath.Join(tmp, "proxy")
	if _, err := modproxy.Write(proxy, ".", version, dirs); err != nil {
		t.Fatal(err)
	}

	mod := filepath.Join(tmp, "outside")
	if err := os.MkdirAll(mod, 0o755); err != nil {
		t.Fatal(err)
	}
	gomod, err := os.ReadFile(filepath.Join("testdata", "outside", "go.mod.txt"))
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(mod, "go.mod"), bytes.ReplaceAll(gomod, []byte("VERSION"), []byte(version)))
	src, err := os.ReadFile(filepath.Join("testdata", "outside", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(mod, "main.go"), src)

	cache := goEnv(t, goCmd, "GOMODCACHE")
	env := append(os.Environ(),
		"GOWORK=off",
		// -trimpath: the module cache is a new directory each run, so without it
		// nothing compiled from it would be found in the build cache next time.
		"GOFLAGS=-mod=mod -trimpath",
		"GOPROXY=file://"+filepath.ToSlash(proxy)+",file://"+filepath.ToSlash(filepath.Join(cache, "cache", "download")),
		"GOSUMDB=off",
		"GOMODCACHE="+filepath.Join(tmp, "modcache"),
		"GOTOOLCHAIN=local",
	)
	// No "go mod tidy": it would resolve the tests of every dependency's
	// packages too (the OpenAI SDK's tests import the Azure SDK), which a
	// machine's module cache need not hold; -mod=mod lets "go run" add
	// exactly the requirements the build needs, as "go get" does for a user.
	start := time.Now()
	cmd := exec.Command(goCmd, "run", ".")
	cmd.Dir, cmd.Env = mod, env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go run .: %v\n%s", err, out)
	}
	t.Logf("go run . (%v):\n%s", time.Since(start).Round(time.Millisecond), out)
	if !strings.Contains(string(out), "1 scenario(s), 0 not successful") {
		t.Errorf("the outside program's verdict: %s", out)
	}
	// The module cache is read-only; let TempDir's clean-up remove it.
	cmd = exec.Command(goCmd, "clean", "-modcache")
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go clean -modcache: %v\n%s", err, out)
	}
}

// requiredVersion is the version at which a nested module's go.mod
// requires the core module: the release the tree is prepared for.
func requiredVersion(t *testing.T, gomod string) string {
	t.Helper()
	data, err := os.ReadFile(gomod)
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(data)) {
		f := strings.Fields(line)
		if len(f) >= 2 && f[0] == modulePath {
			return f[1]
		}
	}
	t.Fatalf("%s does not require %s", gomod, modulePath)
	return ""
}

func goEnv(t *testing.T, goCmd, name string) string {
	t.Helper()
	out, err := exec.Command(goCmd, "env", name).Output()
	if err != nil || strings.TrimSpace(string(out)) == "" {
		t.Fatalf("go env %s: %q %v", name, out, err)
	}
	return strings.TrimSpace(string(out))
}

func write(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
