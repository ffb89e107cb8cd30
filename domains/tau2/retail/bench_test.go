package retail_test

import (
	"testing"

	"github.com/voiceeval/schematools/domains/tau2/internal/tau2test"
	"github.com/voiceeval/schematools/domains/tau2/retail"
	"github.com/voiceeval/schematools/internal/replaytest"
)

// BenchmarkReplayRetail replays all 114 retail tasks with replay.GoldAll on
// the shared DB, as a harness computing every expected DB hash would (and
// as the replay CLI does, on the DB decoded from its file with its key
// order).
func BenchmarkReplayRetail(b *testing.B) {
	replaytest.Benchmark(b, tau2test.SourceScenarios(retail.Domain, tau2test.SharedSource(b, "retail/db.json"), retailTasks(b), retail.Tools))
}
