package domains_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/domains"
	"github.com/voiceeval/schematools/registry"
	"github.com/voiceeval/schematools/state"
)

func TestFindAndRegister(t *testing.T) {
	_, err := domains.Find("tau2_arline")
	assert.ErrorContains(t, err, `unknown domain "tau2_arline" (known: coffee, customer_service, default, eva_airline, restaurant, tau2_airline, tau2_retail, tau2_telecom, waitlist)`)
	reg := new(registry.Tools)
	require.NoError(t, domains.Register(reg))
	for _, d := range domains.All() {
		assert.NotEmpty(t, reg.Names(d.Name), d.Name)
	}
	assert.Contains(t, reg.Names("default"), "EndConversationTool")
}

// The data root holds each domain's files where a bridge's db_path points,
// and each domain's DB loads from it as from the embedded data.
func TestWriteDataRoot(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, domains.WriteDataRoot(root))
	for _, rel := range []string{"coffee/db.json", "tau2_airline/db/flights.json", "tau2_retail/db.json", "tau2_telecom/user_db.json"} {
		_, err := os.Stat(filepath.Join(root, rel))
		assert.NoError(t, err, rel)
	}
	for _, d := range domains.All() {
		db, err := d.LoadDB()
		require.NoError(t, err, d.Name)
		if d.DB == "" {
			continue
		}
		onDisk, err := state.LoadDB(root, filepath.Join(d.Name, d.DB))
		require.NoError(t, err, d.Name)
		assert.Equal(t, len(db), len(onDisk), d.Name)
	}
}

func ExampleFind() {
	d, err := domains.Find("tau2_telecom")
	if err != nil {
		panic(err)
	}
	fmt.Println(d.Name, d.DB, d.UserDB)
	// Output: tau2_telecom db.json user_db.json
}
