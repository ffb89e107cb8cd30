package reporttest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

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
	html, err := harness.RenderReport(runDir)
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
	page := render(t)
	b := newBrowser(t)
	eva := `section[data-scenario="eva_airline__1_1_3"] `
	b.do(chromedp.Navigate("file://"+page), chromedp.WaitVisible(chromedp.CSS("#domains")))
	domains := b.text("#domains tbody")
	transcript := b.text(eva + ".transcript")
	diff := b.text(eva + "table.diff")
	diffVisible, transcriptVisible := b.visible(eva+"table.diff"), b.visible(eva+".transcript")
	callsBefore := b.visible(eva + "li.call")
	b.do(chromedp.Click(chromedp.CSS(eva + "details.trajectory > summary")))
	callsAfter := b.visible(eva + "li.call")
	trajectory := b.text(eva + "details.trajectory")
	b.screenshot("harness-report.png")
	b.do(chromedp.Click(chromedp.CSS("#failed-only")))
	hiddenAfterFilter := !b.visible(`section[data-scenario="customer_service__account_access"]`)
	failedStillShown := b.visible(eva) && b.visible(eva+"li.call")
	alerted := b.eval(`typeof window.__alerted !== "undefined"`)
	if problems := b.close(); len(problems) > 0 {
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
	for _, s := range []string{"Hello, how can I help?", "<script>alert(1)</script>", "I\u2019m locked out of <my> account & \"stuck\".", "812.5 ms"} {
		if !strings.Contains(transcript, s) {
			t.Errorf("transcript lacks %q: %q", s, transcript)
		}
	}
	for _, s := range []string{"reservations.ABC123.status", "\"confirmed\"", "\"cancelled\"", "reservations.ZZZ999", "record added"} {
		if !strings.Contains(diff, s) {
			t.Errorf("DB diff lacks %q: %q", s, diff)
		}
	}
	// The trajectory: calls with their results (one hostile), a clipped
	// argument, an unanswered call, a result no call asked for.
	for _, s := range []string{"Trajectory (8 steps, 3 tool calls)", "get_reservation", `{"confirmation": "ABC123"}`,
		`"note": "<script>alert(2)</script>"`, "cancel_reservation", "[clipped: 2000 of 2140 characters]", "Texts over 2000 characters are clipped",
		"add_bag", "No result in the context.", "call_9 (no call of the context asked for it)", "Let me check <script>alert(1)</script> that for you.812.5 ms"} {
		if !strings.Contains(trajectory, s) {
			t.Errorf("trajectory lacks %q: %q", s, trajectory)
		}
	}
	if !diffVisible || !transcriptVisible {
		t.Errorf("diff visible %v, transcript visible %v", diffVisible, transcriptVisible)
	}
	if callsBefore || !callsAfter {
		t.Errorf("tool calls visible before opening the trajectory %v, after %v", callsBefore, callsAfter)
	}
	if alerted {
		t.Error("a script of the transcript or a tool result ran")
	}
	if !hiddenAfterFilter || !failedStillShown {
		t.Error("the failed-only filter left a passing scenario visible or hid the failed one")
	}
}
