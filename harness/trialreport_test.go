package harness_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/voiceeval/schematools/harness"
)

// The report at the top of a run of several trials: the statistics, a
// mark per trial linked to the trial's report section, and the failed
// and flaky scenarios with their first failing trial's trajectory; the
// trial reports have the anchors; RenderReport gives the same page.
func TestTrialReport(t *testing.T) {
	var ran []string
	// notes__1 flaky (fails trial 2), notes__2 passes, notes__3 fails all.
	bots := trialBots(t, map[string]bool{"notes__1#2": true, "notes__3#1": true, "notes__3#2": true, "notes__3#3": true}, &ran)
	queue := []*harness.Scenario{notesScenario(t, "notes__1"), notesScenario(t, "notes__2"), notesScenario(t, "notes__3")}
	ev, err := harness.Evaluate(context.Background(), queue, trialOptions(t.TempDir(), bots, 3))
	if err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(ev.Dir, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	html := string(page)
	for _, want := range []string{
		"3 trials per scenario, 3 scenarios: 1 passed every trial, 1 flaky, 1 failed every trial",
		`<th class="num">pass^3</th>`,
		// Overall: 5 of 9, pass^3 = 1/3; flaky 1 of 3.
		`<tr data-domain="Overall"><td>Overall</td><td class="num">3</td><td class="num">9</td><td class="num">5</td><td class="num">0.556 [`,
		`<td class="num">33.3%</td></tr>`,
		`<tr data-scenario="notes__1" data-outcome="flaky"><td><a href="#notes__1">notes__1</a></td><td>notes</td><td class="num">2 of 3</td>`,
		`<a class="mark fail" href="trial_2/report.html#notes__1" title="trial 2: fail">`,
		`<tr data-scenario="notes__2" data-outcome="pass"><td>notes__2</td>`,
		`<tr data-scenario="notes__3" data-outcome="fail">`,
		`id="failed-only"`, `id="flaky-only"`,
		`<section class="scenario fail" id="notes__1" data-scenario="notes__1" data-outcome="flaky">`,
		`<a href="trial_2/report.html#notes__1">trial 2</a>`,
		`<section class="scenario fail" id="notes__3" data-scenario="notes__3" data-outcome="fail">`,
		`<code class="tool-name">add_note</code>`,
		`{&#34;text&#34;: &#34;buy bread&#34;}</pre>`,
		`<pre class="result">{&#34;id&#34;: &#34;N1&#34;}</pre>`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("report.html lacks %q", want)
		}
	}
	if strings.Contains(html, `<section class="scenario pass" id="notes__2"`) || strings.Contains(html, `id="notes__2"`) {
		t.Error("a scenario that passed every trial has a section")
	}
	if n := strings.Count(html, "<section "); n != 2 {
		t.Errorf("%d sections, want 2 (the flaky and the failed scenario)", n)
	}
	// Every link to a trial's report has its anchor there.
	for _, m := range regexp.MustCompile(`href="(trial_\d+)/report\.html#([^"]+)"`).FindAllStringSubmatch(html, -1) {
		b, err := os.ReadFile(filepath.Join(ev.Dir, m[1], "report.html"))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(b, []byte(`id="`+m[2]+`"`)) {
			t.Errorf("%s/report.html has no anchor %q", m[1], m[2])
		}
	}
	again, err := harness.RenderReport(ev.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, page) {
		t.Error("RenderReport of the run differs from the report.html Evaluate wrote")
	}
	trial, err := harness.RenderReport(filepath.Join(ev.Dir, "trial_1"))
	if err != nil || !bytes.Contains(trial, []byte(`<h2>Per signal</h2>`)) {
		t.Errorf("RenderReport of a trial is not its run report: %v", err)
	}

	// The failing trial's context gone: the scenario says why, the page
	// is still written.
	if err := os.Remove(filepath.Join(ev.Dir, "trial_1", "notes__3", "bot_logs_agent", "llm_context.json")); err != nil {
		t.Fatal(err)
	}
	page, err = harness.RenderReport(ev.Dir)
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(page, []byte(`id="notes__3"`))
	if i < 0 || !bytes.Contains(page[i:], []byte("No trajectory: no bot_logs_agent/llm_context.json")) {
		t.Error("a missing context is not the scenario's reason")
	}
}
