package retail_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/domains/tau2/internal/tau2test"
	"github.com/voiceeval/schematools/domains/tau2/retail"
	"github.com/voiceeval/schematools/domains/tau2/tau2tools"
	"github.com/voiceeval/schematools/internal/conformance"
	"github.com/voiceeval/schematools/internal/replaytest"
	"github.com/voiceeval/schematools/replay"
	"github.com/voiceeval/schematools/tool"
)

// The conformance data lives in the shared directory and is read in place.

// retailDB is the tau2 retail DB (retail/db.json), loaded once per test
// binary. Replays never modify it.
func retailDB(t testing.TB) map[string]any { return tau2test.SharedDB(t, "retail/db.json") }

func retailTasks(t testing.TB) []replay.Task { return tau2test.Tasks(t, "retail") }

// TestConformanceTrain replays the 74 tasks of the train split and
// requires, task by task, what the Python reference produced (see
// replaytest.RequireGold): the final DB hash; every action's raw result as a
// JSON tree with exact numbers — the 13 domain errors of the train split
// included, with the same status, error_type and message; the records each
// action appended and the whole record list; the replay errors the
// reference logged; the structured diff from the initial DB.
func TestConformanceTrain(t *testing.T) {
	t.Parallel()
	gold := tau2test.RequireTrainSplit(t, retail.Domain, "retail", retailDB(t), retail.Tools)
	conformance.RequireRecords(t, len(gold), "gold_replay_retail.train.jsonl")
	errorResults := 0
	for _, g := range gold {
		for _, a := range g.PerAction {
			if m, ok := a.Result.(map[string]any); ok && m["status"] == "error" {
				errorResults++
			}
		}
	}
	require.Equal(t, 13, errorResults, "domain-error results of the reference in the train split")
}

// TestReplayAllTasks replays all 114 tasks (train and the held-back test
// split) on one shared DB, as the replay CLI does (see
// replaytest.ReplayAllShared: the source DB stays untouched, every hash
// equals a plain replay's), and checks what the Python reference's replay
// of them is known to give: 550 gold actions, no missing tool and no
// exception, 178 records (two of the 180 write actions are refused), the
// 18 domain errors listed, and 103 DBs changed — the others exactly those
// listed.
func TestReplayAllTasks(t *testing.T) {
	t.Parallel()
	tasks := retailTasks(t)
	require.Len(t, tasks, 114)
	sum := replaytest.ReplayAllShared(t, retail.Domain, retailDB(t), tasks, retail.Tools)
	require.Equal(t, 550, sum.Actions)
	require.Equal(t, 178, sum.Records)

	// A domain error: the task, the tool, the error_type and message of
	// the {"status": "error"} result.
	type domainError struct{ task, tool, errorType, message string }
	var errs []domainError
	for _, r := range sum.Results {
		for _, e := range r.Errors {
			require.Equal(t, "error_result", e.Kind, "task %s: %s at action %d (%s)", r.TaskID, e.Message, e.Index, e.Name)
			result := r.Steps[e.Index].Result
			failure, ok := result.(tool.FailureResult)
			require.True(t, ok, "task %s, action %d: %#v", r.TaskID, e.Index, result)
			require.Equal(t, "error", failure.Status)
			require.Equal(t, e.Message, failure.Message)
			errs = append(errs, domainError{r.TaskID, e.Name, failure.ErrorType, failure.Message})
		}
	}
	const (
		product = "get_product_details"
		email   = "find_user_id_by_email"
		nameZip = "find_user_id_by_name_zip"
		order   = "get_order_details"
		noUser  = "User not found"
		nf, ve  = tau2tools.ErrorNotFound, tau2tools.ErrorValue
	)
	want := []domainError{
		{"2", product, nf, "Product 6086499569 not found"}, {"3", product, nf, "Product 6086499569 not found"}, {"4", product, nf, "Product 6086499569 not found"},
		{"35", email, nf, noUser}, {"37", email, nf, noUser}, {"38", email, nf, noUser}, {"54", email, nf, noUser}, {"55", email, nf, noUser},
		{"39", nameZip, nf, noUser}, {"67", nameZip, nf, noUser}, {"67", nameZip, nf, noUser}, {"68", nameZip, nf, noUser},
		{"46", order, nf, "Order #9502126 not found"}, {"46", order, nf, "Order #9502127 not found"},
		{"47", order, nf, "Order #9502126 not found"}, {"47", order, nf, "Order #9502127 not found"},
		{"64", retail.KeyExchangeDeliveredOrderItems, ve, "Non-delivered order cannot be exchanged"},
		{"105", retail.KeyExchangeDeliveredOrderItems, ve, "Insufficient gift card balance to pay for the price difference"},
	}
	require.ElementsMatch(t, want, errs, "the domain errors of the gold replay")
	require.ElementsMatch(t, []string{"10", "12", "24", "25", "50", "57", "62", "65", "67", "68", "105"}, sum.Unchanged,
		"tasks whose DB the replay leaves unchanged")
}

// TestResultTextsTrain requires every result of the train split's gold
// replay to read, as a model reads it (json.dumps(result,
// ensure_ascii=False) in the tool message), byte for byte as the Python
// reference's: the same keys in the same order — an order in the data
// file's order, what a tool adds in the order it adds it — on the replay
// path and on the live path.
func TestResultTextsTrain(t *testing.T) {
	t.Parallel()
	gold, n := tau2test.RequireTrainTexts(t, retail.Domain, "retail", "retail/db.json", retail.Tools)
	conformance.RequireRecords(t, len(gold), "gold_replay_retail.train.jsonl")
	t.Logf("%d results compared byte for byte (%d actions, each on both paths)", n, n/2)
}
