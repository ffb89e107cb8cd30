package coffee

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
)

// Domain is the tool domain of the coffee-shop tools.
const Domain = "coffee"

// Action types recorded by the write tools.
const (
	ActionPlaceOrder  = "place_order"
	ActionCancelOrder = "cancel_order"
)

// ActionTypes returns the domain's action vocabulary.
func ActionTypes() []string {
	return []string{ActionPlaceOrder, ActionCancelOrder}
}

//go:embed db.json
var dbJSON []byte

// DB returns a fresh copy of the embedded coffee-shop DB: a "menu" of items
// with prices per size, and an empty "orders" table. Numbers decode as
// json.Number.
func DB() map[string]any {
	dec := json.NewDecoder(bytes.NewReader(dbJSON))
	dec.UseNumber()
	var db map[string]any
	if err := dec.Decode(&db); err != nil {
		// The file is embedded at build time and covered by tests.
		panic(fmt.Sprintf("coffee: embedded DB is invalid: %v", err))
	}
	return db
}
