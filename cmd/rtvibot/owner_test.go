package main

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The owner rules, each sequence played one message at a time with NeMo's
// messages only. Harness A plays tau2_retail, harness B tau2_airline, so
// a scenario played on the other's DB shows in its hash.

// goldHarness is one harness's scenario: its domain, tools and gold hash.
type goldHarness struct{ domain, tools, want string }

func goldHarnesses(t *testing.T) (a, b goldHarness) {
	t.Helper()
	for i, name := range []string{"tau2_retail", "tau2_airline"} {
		d, _ := findTau2Domain(name)
		want, _, tools := goldExpectations(t, d)
		h := goldHarness{domain: name, tools: tools, want: want["0"]}
		if i == 0 {
			a = h
		} else {
			b = h
		}
	}
	return a, b
}

// prepareConn opens a prepare connection and sends g's preparation (reset,
// update_system_prompt, apply_initialization) and the extras, returning
// the connection (open) and the first error-response, if any.
func prepareConn(ctx context.Context, t *testing.T, url string, g goldHarness, x prepareExtras) (*harness, map[string]any) {
	t.Helper()
	h, err := dialHarness(ctx, url)
	require.NoError(t, err)
	_, err = h.ready(ctx)
	require.NoError(t, err)
	steps := []struct {
		t string
		d map[string]any
	}{
		{"reset", map[string]any{}},
		{"update_system_prompt", map[string]any{"prompt": "You are an airline or retail agent.", "tools": g.tools, "add_suffix": false, "tool_domain": g.domain}},
		{"apply_initialization", map[string]any{"domain": g.domain, "shared_state_init": `{"db_path": "` + g.domain + `/db.json"}`, "actions": []any{}}},
	}
	if x.delta {
		steps = append(steps, struct {
			t string
			d map[string]any
		}{"apply_sync_delta", map[string]any{"domain": g.domain, "delta": map[string]any{}}})
	}
	if x.summary {
		steps = append(steps, struct {
			t string
			d map[string]any
		}{"get_scenario_summary", map[string]any{"include_db": false}})
	}
	for _, s := range steps {
		m, err := h.request(ctx, s.t, s.d)
		require.NoError(t, err, s.t)
		if m["type"] == "error-response" {
			return h, m
		}
		require.Equal(t, "server-response", m["type"], "%s: %v", s.t, m)
	}
	return h, nil
}

// A prepares and, on its prepare connection, reads the summary or pushes
// a sync delta (NeMo's initial shadow sync); B starts preparing; A's run
// plays A's scenario on A's DB; B's preparation is answered once A's run
// is over (never refused), and B's run plays B's. Failed before: the read
// or the delta freed A's scenario when A's prepare connection closed, so
// B's preparation replaced it unrefused, A's run played B's scenario
// (right exit, B's hash) and B's run got "Send /call …" and no exit.
func TestPrepareConnectionReadsAndDeltasKeepTheScenario(t *testing.T) {
	a, b := goldHarnesses(t)
	for _, tc := range []struct {
		name string
		x    prepareExtras
	}{
		{"summary read while preparing", prepareExtras{summary: true}},
		{"sync delta while preparing", prepareExtras{delta: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bot, url := startGoldBot(t)
			bot.gold.setTask("0")
			ctx := testContext(t)
			pa, refusal := prepareConn(ctx, t, url, a, tc.x)
			require.Nil(t, refusal)
			pa.close()

			type prepared struct {
				h       *harness
				refusal map[string]any
			}
			bDone := make(chan prepared, 1)
			go func() {
				h, refusal := prepareConn(ctx, t, url, b, tc.x)
				bDone <- prepared{h, refusal}
			}()
			time.Sleep(100 * time.Millisecond) // B's preparation is in: its reset waits

			run := runGold(ctx, t, url)
			assert.Equal(t, a.want, summary(ctx, t, run)["db_hash"], "A's run plays A's scenario")
			select {
			case p := <-bDone:
				t.Fatalf("B's preparation was answered while A's run was in progress: %v", p.refusal)
			default:
			}
			run.close()

			p := <-bDone
			require.Nil(t, p.refusal, "B's preparation is answered once A's run is over")
			p.h.close()
			run = runGold(ctx, t, url)
			assert.Equal(t, b.want, summary(ctx, t, run)["db_hash"], "B's run plays B's scenario")
		})
	}
}

// A harness prepares and stops (an aborted scenario, a crashed client);
// NeMo's bridge comes next with its own sequence: its preparation waits
// for the reservation to lapse (RunWait, 10 s by default) and is answered
// well within the 15 s the bridge waits for apply_initialization — never
// refused — and its run plays its scenario. Failed before: the
// preparation was refused at once ("scenario 1 … waits for its run
// connection (reset refused)"), for a minute, and NeMo's runner aborted
// the whole run.
func TestAbortedPreparationThenNeMosSequence(t *testing.T) {
	t.Parallel() // it waits out RunWait
	a, b := goldHarnesses(t)
	bot, url := startGoldBot(t)
	bot.gold.setTask("0")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	pa, refusal := prepareConn(ctx, t, url, a, prepareExtras{})
	require.Nil(t, refusal)
	pa.close() // and A never runs

	start := time.Now()
	pb, refusal := prepareConn(ctx, t, url, b, prepareExtras{})
	took := time.Since(start)
	require.Nil(t, refusal, "NeMo's bridge is not refused")
	pb.close()
	t.Logf("NeMo's preparation after an aborted one was answered in %v", took)
	assert.Less(t, took, 15*time.Second, "within the bridge's wait for apply_initialization")
	assert.GreaterOrEqual(t, took, DefaultTimeouts.RunWait-time.Second, "the aborted scenario was reserved for its run meanwhile")

	run := runGold(ctx, t, url)
	assert.Equal(t, b.want, summary(ctx, t, run)["db_hash"])
}

// An open run connection that has not spoken yet — NeMo's user-simulator
// side waits for the agent's first words — holds its scenario past
// RunWait: another harness's preparation waits, then is refused by name;
// the run connection then claims its own scenario.
func TestOpenRunConnectionHoldsItsScenario(t *testing.T) {
	a, b := goldHarnesses(t)
	bot, url := startGoldBot(t)
	bot.gold.setTask("0")
	bot.setTimeouts(Timeouts{RunWait: 200 * time.Millisecond, Grace: 100 * time.Millisecond})
	ctx := testContext(t)
	pa, refusal := prepareConn(ctx, t, url, a, prepareExtras{})
	require.Nil(t, refusal)
	pa.close()
	run, err := dialHarness(ctx, url)
	require.NoError(t, err)
	defer run.close()
	_, err = run.ready(ctx)
	require.NoError(t, err)
	time.Sleep(400 * time.Millisecond) // past RunWait, silent

	pb, refusal := prepareConn(ctx, t, url, b, prepareExtras{})
	defer pb.close()
	require.NotNil(t, refusal, "B's preparation is refused")
	assert.Contains(t, fmt.Sprint(refusal["data"]), "scenario 1 (tau2_retail) is prepared and waits for its run connection")

	_, err = run.sendText(ctx, "Hello")
	require.NoError(t, err)
	require.NoError(t, run.waitExit(ctx))
	assert.Equal(t, a.want, summary(ctx, t, run)["db_hash"], "the run connection plays its own scenario")
}

// The conversation of a connection that was open before the preparation
// ended is refused by name; the run connection then plays the scenario.
func TestOnlyARunConnectionClaimsTheScenario(t *testing.T) {
	a, _ := goldHarnesses(t)
	bot, url := startGoldBot(t)
	bot.gold.setTask("0")
	bot.setTimeouts(Timeouts{Grace: 50 * time.Millisecond})
	ctx := testContext(t)
	early, err := dialHarness(ctx, url)
	require.NoError(t, err)
	defer early.close()
	_, err = early.ready(ctx)
	require.NoError(t, err)

	pa, refusal := prepareConn(ctx, t, url, a, prepareExtras{})
	require.Nil(t, refusal)
	pa.close()

	_, err = early.sendText(ctx, "Hello")
	assert.ErrorContains(t, err, "scenario 1 (tau2_retail) is prepared and waits for its run connection")

	run := runGold(ctx, t, url)
	assert.Equal(t, a.want, summary(ctx, t, run)["db_hash"])
}
