package dbhash

import (
	"testing"

	"github.com/voiceeval/schematools/internal/pyjson"
)

// An encoder that failed holds no reference to the DB it was encoding:
// pooled, it would keep a large DB alive.
func TestFailedObjectDropsItsMembers(t *testing.T) {
	c := &canon{cfg: defaultConfig, style: pyjson.Compact}
	db := map[string]any{"a": 1, "b": map[string]any{"c": make(chan int)}, "z": "kept?"}
	if err := c.object(db, 0, nil); err == nil {
		t.Fatal("a channel hashed")
	}
	for depth, pairs := range c.pairs {
		for _, p := range pairs[:cap(pairs)] {
			if p.val != nil || p.key != "" {
				t.Fatalf("depth %d still holds member %q", depth, p.key)
			}
		}
	}
}
