package airline_test

import (
	"testing"

	"github.com/voiceeval/schematools/examples/tau2/airline"
	"github.com/voiceeval/schematools/examples/tau2/tau2test"
	"github.com/voiceeval/schematools/replay/replaytest"
)

// BenchmarkReplayAirline replays all 50 airline tasks with replay.GoldAll,
// as a harness computing every expected DB hash would.
func BenchmarkReplayAirline(b *testing.B) {
	replaytest.Benchmark(b, tau2test.Scenarios(airline.Domain, airlineDB(b), airlineTasks(b), airline.Tools))
}
