package airline_test

import (
	"testing"

	"github.com/voiceeval/schematools/examples/tau2/airline"
	"github.com/voiceeval/schematools/examples/tau2/tau2test"
)

// BenchmarkReplayAirline replays all 50 airline tasks with replay.GoldAll,
// as a harness computing every expected DB hash would.
func BenchmarkReplayAirline(b *testing.B) {
	tau2test.BenchmarkReplay(b, airline.Domain, airlineDB(b), airlineTasks(b), airline.Tools)
}
