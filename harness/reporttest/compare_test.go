package reporttest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/voiceeval/schematools/harness"
)

// renderComparison compares the golden run with a copy in which
// customer_service__account_access failed (is_action_match, and a harness
// error that is markup), eva_airline__1_1_3 passed and tau2_retail__103
// is gone, and writes the comparison page.
func renderComparison(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(runDir, "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var head []string
	for _, l := range strings.SplitAfter(string(b), "\n") {
		switch {
		case strings.Contains(l, `"scenario":"customer_service__account_access"`):
			l = strings.Replace(l, `"is_successful":true`, `"is_successful":false`, 1)
			l = strings.Replace(l, `"passed":["is_action_match","clean_exit"],"failed":[]`, `"passed":["clean_exit"],"failed":["is_action_match"]`, 1)
			l = strings.Replace(l, `"stop_reason":"[EXIT]"`, `"stop_reason":"[BOT_ERROR]","harness_error":"<script>window.__alerted=1</script>"`, 1)
		case strings.Contains(l, `"scenario":"eva_airline__1_1_3"`):
			l = strings.Replace(l, `"is_successful":false`, `"is_successful":true`, 1)
		case strings.Contains(l, `"scenario":"tau2_retail__103"`):
			continue
		}
		head = append(head, l)
	}
	dir := t.TempDir()
	headRun := filepath.Join(dir, "head")
	if err := os.Mkdir(headRun, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(headRun, "results.jsonl"), []byte(strings.Join(head, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := harness.Compare(runDir, headRun, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Regressions) != 1 || len(c.Improvements) != 1 || len(c.OnlyBase) != 1 {
		t.Fatalf("regressions %d, improvements %d, only in base %d: want 1 each", len(c.Regressions), len(c.Improvements), len(c.OnlyBase))
	}
	page, err := c.HTML()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "compare.html")
	if err := os.WriteFile(path, page, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// The comparison page loads in headless chromium with no console error:
// the regression shows with base's pass against head's fail and why it
// failed, the improvement and the scenario only base holds are listed,
// and the markup in the harness error is shown, not run.
func TestComparisonInChromium(t *testing.T) {
	bin := chromium(t)
	page := renderComparison(t)

	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(bin), chromedp.NoSandbox,
		chromedp.Headless, chromedp.DisableGPU, chromedp.WindowSize(1280, 900))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, 60*time.Second)
	defer cancel()

	messages := chromedp.Console(ctx)
	var problems []string
	collected := make(chan struct{})
	go func() {
		defer close(collected)
		for m, err := range messages {
			if err != nil {
				return
			}
			if m.IsException() || m.Type == chromedp.ConsoleError {
				problems = append(problems, m.String())
			}
		}
	}()

	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+page), chromedp.WaitVisible(chromedp.CSS("#regressions"))); err != nil {
		t.Fatal(err)
	}
	text := func(sel string) string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
		if err != nil {
			t.Fatalf("%s: %v", sel, err)
		}
		return s
	}
	regression := `section.regression[data-scenario="customer_service__account_access"]`
	verdict := text("#verdict")
	base, head := text(regression+" td.base"), text(regression+" td.head")
	rates := text(regression + " .rates")
	improvement := text(`section.improvement[data-scenario="eva_airline__1_1_3"] .rates`)
	onlyBase := text(`section[data-scenario="tau2_retail__103"]`)
	visible, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { const e = document.querySelector('`+regression+` td.head .why'); return !!e && e.getBoundingClientRect().height > 0; })()`))
	if err != nil {
		t.Fatal(err)
	}
	alerted, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`typeof window.__alerted !== "undefined"`))
	if err != nil {
		t.Fatal(err)
	}
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	<-collected

	shot := filepath.Join(os.TempDir(), "harness-compare.png")
	if err := os.WriteFile(shot, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", shot)

	if len(problems) > 0 {
		t.Errorf("console errors or exceptions: %v", problems)
	}
	for _, c := range []struct{ what, got, want string }{
		{"verdict", verdict, "No significant regression: 1 scenario(s) regressed, 1 improved (p = 1, α = 0.05)"},
		{"regression's rates", rates, "pass → fail"},
		{"base trial", base, "pass"},
		{"head trial", head, "failed: is_action_match; harness error: <script>window.__alerted=1</script>; stop: [BOT_ERROR]"},
		{"improvement", improvement, "fail → pass"},
		{"only in base", onlyBase, "tau2_retail__103"},
	} {
		if !strings.Contains(c.got, c.want) {
			t.Errorf("%s: %q lacks %q", c.what, c.got, c.want)
		}
	}
	if !visible {
		t.Error("why head's trial failed is not visible")
	}
	if alerted {
		t.Error("the harness error's script ran")
	}
}
