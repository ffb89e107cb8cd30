package reporttest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/voiceeval/schematools/harness"
)

const runDir = "../testdata/golden/run"

func chromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("chromium is not installed (CI must install it: apt-get install -y chromium)")
	}
	t.Skip("chromium is not installed; apt-get install -y chromium to run the browser test")
	return ""
}

// render builds report.html for the golden run.
func render(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(runDir, "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "\n"); n != 4 {
		t.Fatalf("golden run has %d lines", n)
	}
	html, err := harness.RenderReport(runDir, harness.ReportOptions{Title: "eval_20260101_120000", Queued: 4, MinAgentTurns: 3})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "report.html")
	if err := os.WriteFile(path, html, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestReportInChromium(t *testing.T) {
	bin := chromium(t)
	page := render(t)

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

	sel := func(s string) chromedp.CSS { return chromedp.CSS(s) }
	visible := func(s string) string {
		return `(() => { const e = document.querySelector(` + "`" + s + "`" + `); return !!e && e.getBoundingClientRect().height > 0; })()`
	}
	eva := `section[data-scenario="eva_airline__1_1_3"] `
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+page), chromedp.WaitVisible(sel("#domains"))); err != nil {
		t.Fatal(err)
	}
	get := func(a chromedp.Action[string]) string {
		t.Helper()
		s, err := chromedp.Run(ctx, a)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	check := func(expr string) bool {
		t.Helper()
		b, err := chromedp.Run(ctx, chromedp.Evaluate[bool](expr))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	domains := get(chromedp.Text(sel("#domains tbody")))
	transcript := get(chromedp.Text(sel(eva + ".transcript")))
	diff := get(chromedp.Text(sel(eva + "table.diff")))
	diffVisible, transcriptVisible := check(visible(eva+"table.diff")), check(visible(eva+".transcript"))
	alerted := check(`typeof window.__alerted !== "undefined"`)
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Click(sel("#failed-only"))); err != nil {
		t.Fatal(err)
	}
	hiddenAfterFilter := !check(visible(`section[data-scenario="customer_service__account_access"]`))
	failedStillShown := check(visible(eva))
	cancel()
	<-collected

	shot := filepath.Join(os.TempDir(), "harness-report.png")
	if err := os.WriteFile(shot, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", shot)

	if len(problems) > 0 {
		t.Errorf("console errors or exceptions: %v", problems)
	}
	rows := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(domains), "\n") {
		f := strings.Fields(line)
		if len(f) > 4 {
			rows[f[0]] = strings.Join(f[1:5], " ")
		}
	}
	for domain, want := range map[string]string{
		"customer_service": "1 1/1 100.00% 100.00%",
		"eva_airline":      "2 0/2 0.00% 0.00%",
		"tau2_retail":      "1 1/1 100.00% 100.00%",
	} {
		if rows[domain] != want {
			t.Errorf("domain row %s = %q, want %q (table %q)", domain, rows[domain], want, domains)
		}
	}
	for _, s := range []string{"Hello, how can I help?", "<script>alert(1)</script>", "I\u2019m locked out of <my> account & \"stuck\"."} {
		if !strings.Contains(transcript, s) {
			t.Errorf("transcript lacks %q: %q", s, transcript)
		}
	}
	for _, s := range []string{"reservations.ABC123.status", "\"confirmed\"", "\"cancelled\"", "reservations.ZZZ999", "record added"} {
		if !strings.Contains(diff, s) {
			t.Errorf("DB diff lacks %q: %q", s, diff)
		}
	}
	if !diffVisible || !transcriptVisible {
		t.Errorf("diff visible %v, transcript visible %v", diffVisible, transcriptVisible)
	}
	if alerted {
		t.Error("the transcript's script ran")
	}
	if !hiddenAfterFilter || !failedStillShown {
		t.Error("the failed-only filter left a passing scenario visible")
	}
}
