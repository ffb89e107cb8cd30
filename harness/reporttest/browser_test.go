package reporttest

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// browser is one headless Chromium tab and what its console reported.
type browser struct {
	t         *testing.T
	ctx       context.Context
	cancel    func()
	problems  []string
	collected chan struct{}
}

// newBrowser starts Chromium (chromium(t)) with a 90 s bound on the test.
func newBrowser(t *testing.T) *browser {
	t.Helper()
	bin := chromium(t)
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(bin), chromedp.NoSandbox,
		chromedp.Headless, chromedp.DisableGPU, chromedp.WindowSize(1280, 900))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelTab := chromedp.NewContext(actx)
	ctx, cancelTime := context.WithTimeout(ctx, 90*time.Second)
	b := &browser{t: t, ctx: ctx, collected: make(chan struct{})}
	b.cancel = func() { cancelTime(); cancelTab(); cancelAlloc() }
	messages := chromedp.Console(ctx)
	go func() {
		defer close(b.collected)
		for m, err := range messages {
			if err != nil {
				return
			}
			if m.IsException() || m.Type == chromedp.ConsoleError {
				b.problems = append(b.problems, m.String())
			}
		}
	}()
	return b
}

// close ends the browser and returns the console errors and exceptions.
func (b *browser) close() []string {
	b.cancel()
	<-b.collected
	return b.problems
}

func (b *browser) do(actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, actions...); err != nil {
		b.t.Fatal(err)
	}
}

func (b *browser) eval(expr string) bool {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](expr))
	if err != nil {
		b.t.Fatal(err)
	}
	return v
}

// visible reports whether the first element sel matches is shown: not
// hidden by a filter, nor in a closed details (whose content Chromium
// lays out but hides: checkVisibility).
func (b *browser) visible(sel string) bool {
	b.t.Helper()
	return b.eval(`(() => { const e = document.querySelector(` + "`" + sel + "`" + `); return !!e && e.checkVisibility() && e.getBoundingClientRect().height > 0; })()`)
}

func (b *browser) text(sel string) string {
	b.t.Helper()
	s, err := chromedp.Run(b.ctx, chromedp.Text(chromedp.CSS(sel)))
	if err != nil {
		b.t.Fatal(err)
	}
	return s
}

func (b *browser) location() string {
	b.t.Helper()
	s, err := chromedp.Run(b.ctx, chromedp.Location())
	if err != nil {
		b.t.Fatal(err)
	}
	return s
}

// screenshot saves the whole page as name in the artifacts directory
// ($REPORTTEST_ARTIFACTS, else the temporary directory) and logs its path.
func (b *browser) screenshot(name string) {
	b.t.Helper()
	png, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		b.t.Fatal(err)
	}
	dir := os.Getenv("REPORTTEST_ARTIFACTS")
	if dir == "" {
		dir = os.TempDir()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		b.t.Fatal(err)
	}
	b.t.Logf("screenshot: %s", path)
}
