package telecom

import (
	"testing"

	"github.com/voiceeval/schematools/internal/replaytest"
)

// BenchmarkReplayTelecom replays all 114 telecom tasks with replay.GoldAll
// on the shared DBs (copy-on-write, hashes only), as a harness computing
// every expected hash would (replaytest.Benchmark). The scenarios
// are built outside the timer; µs/task is the wall time per task. The DBs
// are decoded from their files with their key order, as the replay CLI
// loads them.
func BenchmarkReplayTelecom(b *testing.B) {
	d := loadInputs(b)
	out := Scenarios(d.tasks, d.agentFiles, d.userFiles, nil)
	for i := range out {
		out[i].HashesOnly = true
	}
	replaytest.Benchmark(b, out)
}
