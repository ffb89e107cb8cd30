package telecom

import (
	"context"
	"testing"

	"github.com/voiceeval/schematools/replay"
)

// BenchmarkReplayTelecom replays all 114 telecom tasks with replay.GoldAll
// on the shared DBs (copy-on-write, hashes only), as a harness computing
// every expected hash would. The scenarios are built outside the timer;
// µs/task is the wall time per task.
func BenchmarkReplayTelecom(b *testing.B) {
	d := loadInputs(b)
	scs := scenarios(d, d.tasks, nil)
	if _, err := replay.GoldAll(context.Background(), scs, 0, nil); err != nil { // warm the prototypes
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := replay.GoldAll(context.Background(), scs, 0, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(scs))/1e3, "µs/task")
}
