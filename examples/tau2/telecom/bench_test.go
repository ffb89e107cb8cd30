package telecom

import (
	"testing"

	"github.com/voiceeval/schematools/replay/replaytest"
)

// BenchmarkReplayTelecom replays all 114 telecom tasks with replay.GoldAll
// on the shared DBs (copy-on-write, hashes only), as a harness computing
// every expected hash would (replaytest.Benchmark). The scenarios
// are built outside the timer; µs/task is the wall time per task.
func BenchmarkReplayTelecom(b *testing.B) {
	d := loadInputs(b)
	replaytest.Benchmark(b, scenarios(d, d.tasks, nil))
}
