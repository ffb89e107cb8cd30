package evaairline

import (
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/voiceeval/schematools/domains/nemo/nemodata"
	"github.com/voiceeval/schematools/internal/pyvalue"
)

// Two tools walk the journeys table in the fixture file's order (Python
// dicts keep it): GetFlightStatusTool's fallback takes the first journey
// that matches, and SearchRebookingOptionsTool's sort by departure time
// keeps that order among ties. A Go map has no order, and no tool adds or
// removes a journey, so the order is recovered from the shipped fixtures:
// the journeys table of a DB whose journey ids are exactly those of a
// fixture is walked in that fixture's order; any other table is walked in
// sorted id order.

// fixtureJourneyOrders maps the sorted journey ids of each shipped fixture
// (joined by NUL) to their order in the file; ids shared by fixtures that
// order them differently are left out.
var fixtureJourneyOrders = sync.OnceValue(func() map[string][]string {
	out := map[string][]string{}
	ambiguous := map[string]bool{}
	entries, err := fs.ReadDir(nemodata.FS, fixtureDir)
	if err != nil {
		return out
	}
	for _, e := range entries {
		if e.IsDir() || path.Ext(e.Name()) != ".json" {
			continue
		}
		data, err := fs.ReadFile(nemodata.FS, path.Join(fixtureDir, e.Name()))
		if err != nil {
			continue
		}
		order := journeyIDsInText(data)
		if order == nil {
			continue
		}
		key := fingerprint(slices.Sorted(slices.Values(order)))
		if prev, ok := out[key]; ok && !slices.Equal(prev, order) {
			ambiguous[key] = true
		}
		out[key] = order
	}
	for k := range ambiguous {
		delete(out, k)
	}
	return out
})

// journeyIDsInText returns the keys of the journeys table of a fixture's
// JSON text, in the text's order.
func journeyIDsInText(data []byte) []string {
	v, err := pyvalue.Loads(data)
	if err != nil {
		return nil
	}
	root, ok := v.(pyvalue.Dict)
	if !ok {
		return nil
	}
	j, _ := root.Get(tableJourneys)
	journeys, ok := j.(pyvalue.Dict)
	if !ok {
		return nil
	}
	items := journeys.Items()
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.Key
	}
	return out
}

func fingerprint(sorted []string) string { return strings.Join(sorted, "\x00") }

// journeyOrder returns the ids of journeys in the order the original
// walks them.
func journeyOrder(journeys map[string]any) []string {
	ids := make([]string, 0, len(journeys))
	for id := range journeys {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	if order, ok := fixtureJourneyOrders()[fingerprint(ids)]; ok {
		return order
	}
	return ids
}
