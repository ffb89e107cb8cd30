//go:build realmodel

package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
	"time"
)

// The repository's ElevenLabs suite against a real small model (served by
// scripts/realmodel/realmodel.sh; its base URL in REALMODEL_URL), each test
// run twice, the same model judging its llm checks: the report is written
// whatever the model answers (exit 0 when every run passed, 1 when one did
// not; never a usage or suite error). Built with -tags realmodel (.ci/run,
// which runs it at the lowest priority beside other tests: its time bound is
// far beyond the seconds a call takes).
func TestRealModelSuite(t *testing.T) {
	url := os.Getenv("REALMODEL_URL")
	if url == "" {
		t.Fatal("REALMODEL_URL is not set: start the model with scripts/realmodel/realmodel.sh start")
	}
	var out, errOut bytes.Buffer
	start := time.Now()
	code, err := run(context.Background(), repo("-provider", "openai", "-llm-url", url, "-llm-model", "qwen2.5-coder-0.5b",
		"-judge-model", "qwen2.5-coder-0.5b", "-repeat", "2", "-workers", "1", "-llm-max-tokens", "128", "-llm-timeout", "10m"),
		&out, &errOut, func(string) string { return "EMPTY" })
	if err != nil || (code != 0 && code != 1) {
		t.Fatalf("exit %d, %v\n%s", code, err, errOut.String())
	}
	report := out.String()
	if !strings.Contains(report, "pass^2") {
		t.Fatalf("no report:\n%s", report)
	}
	t.Logf("exit %d in %v; the report:\n%s", code, time.Since(start).Round(time.Second), report)
}
