package airline_test

import (
	"testing"

	"github.com/voiceeval/schematools/domains/tau2/airline"
	"github.com/voiceeval/schematools/domains/tau2/internal/tau2test"
	"github.com/voiceeval/schematools/internal/replaytest"
)

// BenchmarkReplayAirline replays all 50 airline tasks with replay.GoldAll,
// as a harness computing every expected DB hash would (and as the replay
// CLI does, on the DB decoded from its files with their key order).
func BenchmarkReplayAirline(b *testing.B) {
	replaytest.Benchmark(b, tau2test.SourceScenarios(airline.Domain, tau2test.SharedSource(b, "airline/db"), airlineTasks(b), airline.Tools))
}
