package main

import (
	"bytes"
	"context"
	"testing"
)

// The scenario runs against the two in-process notes bots and succeeds.
func TestNotesScenarioSucceeds(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), nil, &out); err != nil {
		t.Fatal(err)
	}
	if got, want := out.String(), "1 scenario(s), 0 not successful\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
