package airline_test

import (
	"context"
	"testing"

	"github.com/voiceeval/schematools/dbhash"
	"github.com/voiceeval/schematools/examples/tau2/airline"
	"github.com/voiceeval/schematools/replay"
)

// BenchmarkReplayAirline replays all 50 airline tasks with replay.GoldAll,
// as a harness computing every expected DB hash would. The DB is loaded
// and hashed once, outside the timer.
func BenchmarkReplayAirline(b *testing.B) {
	db := airlineDB(b)
	tasks := airlineTasks(b)
	h, err := dbhash.Hash(db)
	if err != nil {
		b.Fatal(err)
	}
	cache, err := dbhash.NewCache(db)
	if err != nil {
		b.Fatal(err)
	}
	scenarios := make([]replay.Scenario, len(tasks))
	for i, task := range tasks {
		scenarios[i] = replay.Scenario{Domain: airline.Domain, Task: task, DB: db, Tools: airline.Tools, ShareDB: true, SourceDBHash: h, HashCache: cache, HashesOnly: true}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := replay.GoldAll(context.Background(), scenarios, 0, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(tasks))/1e3, "µs/task")
}
