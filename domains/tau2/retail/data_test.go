package retail_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/voiceeval/schematools/internal/pyvalue"
)

// The Python tools answer a first-match lookup with the first record in
// the data file's order, which a Go map does not keep; the port walks
// tables in key order instead. TestFirstMatchLookupsAreUnambiguous shows
// that on the tau2 retail data no such lookup can see two candidates, so
// the two orders give the same answers: no two users share a name and a
// zip code, or an email (case-folded); no item id is a variant of two
// products; no two products share a name. The tools change none of these
// but the zip code (modify_user_address), which the package doc covers.
// It also checks the ids the lookups normalise to: user ids lower case,
// order ids upper case with their '#'.
func TestFirstMatchLookupsAreUnambiguous(t *testing.T) {
	db := retailDB(t)
	nameZip, email := map[string]string{}, map[string]string{}
	for id, u := range db["users"].(map[string]any) {
		user := u.(map[string]any)
		name := user["name"].(map[string]any)
		key := pyvalue.Lower(name["first_name"].(string)) + "\x00" + pyvalue.Lower(name["last_name"].(string)) + "\x00" +
			user["address"].(map[string]any)["zip"].(string)
		assert.Empty(t, nameZip[key], "users %s and %s share a name and a zip code", nameZip[key], id)
		nameZip[key] = id
		mail := pyvalue.Lower(user["email"].(string))
		assert.Empty(t, email[mail], "users %s and %s share an email", email[mail], id)
		email[mail] = id
		assert.Equal(t, pyvalue.Lower(id), id)
	}
	items, productNames := map[string]string{}, map[string]string{}
	for id, p := range db["products"].(map[string]any) {
		product := p.(map[string]any)
		for item := range product["variants"].(map[string]any) {
			assert.Empty(t, items[item], "item %s is a variant of products %s and %s", item, items[item], id)
			items[item] = id
		}
		name := product["name"].(string)
		assert.Empty(t, productNames[name], "products %s and %s share a name", productNames[name], id)
		productNames[name] = id
	}
	assert.Len(t, nameZip, 500)
	assert.Len(t, items, 591)
	assert.Len(t, productNames, 50)
	for id := range db["orders"].(map[string]any) {
		assert.True(t, strings.HasPrefix(id, "#") && pyvalue.Upper(id) == id, id)
	}
}
