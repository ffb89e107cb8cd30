package retail

import (
	"github.com/voiceeval/schematools/domains/tau2/tau2tools"
	"github.com/voiceeval/schematools/internal/pyvalue"
)

// swap is one item of an order to be exchanged, or modified, for another
// option of its product: the variant it becomes.
type swap struct {
	oldID, newID string
	variant      map[string]any
}

// priceSwaps checks the pairs (oldIDs[i], newIDs[i]) of an order's items,
// in order, as exchange_delivered_order_items and
// modify_pending_order_items do, and returns them with the price
// difference, round(Σ float(new price) − float(old price), 2).
//
// For each pair: when sameRefused, a new id equal to the old one is
// value_error "The new item id should be different from the old item id";
// the order must hold the old item (value_error "Item <id> not found");
// the new id must be an available variant of the same product (value_error
// "New item <id> not found or available"). The refusal is returned as the
// result to answer with.
func priceSwaps(db map[string]any, items []map[string]any, oldIDs, newIDs []string, sameRefused bool) ([]swap, float64, any, error) {
	swaps := make([]swap, 0, len(oldIDs))
	diff := 0.0
	for i, oldID := range oldIDs {
		newID := newIDs[i]
		if sameRefused && oldID == newID {
			return nil, 0, tau2tools.ValueError("The new item id should be different from the old item id"), nil
		}
		item := firstItem(items, oldID)
		if item == nil {
			return nil, 0, tau2tools.ValueError("Item " + oldID + " not found"), nil
		}
		variant, err := findVariant(db, item["product_id"], newID)
		if err != nil {
			return nil, 0, nil, err
		}
		if variant == nil || !pyvalue.Truthy(variant["available"]) {
			return nil, 0, tau2tools.ValueError("New item " + newID + " not found or available"), nil
		}
		newPrice, err := floatAt(variant, "price")
		if err != nil {
			return nil, 0, nil, err
		}
		oldPrice, err := floatAt(item, "price")
		if err != nil {
			return nil, 0, nil, err
		}
		diff += newPrice - oldPrice
		swaps = append(swaps, swap{oldID: oldID, newID: newID, variant: variant})
	}
	rounded, _ := pyvalue.Round2(diff) // a float never fails
	diff, _ = rounded.Float64()
	return swaps, diff, nil, nil
}

// floatAt is Python's float(d.get(key, 0)).
func floatAt(d map[string]any, key string) (float64, error) {
	v, ok := d[key]
	if !ok {
		return 0, nil
	}
	f, err := pyvalue.Float(v)
	return f, tau2tools.Exception(err)
}

// itemCountsFailure checks that the order holds every item of ids as often
// as ids lists it, and that there are as many new ids as ids: the first
// checks of an exchange or a modification. It returns the refusal to
// answer with, or nil; missing words the first message for the id that is
// missing, and lengths is the second.
func itemCountsFailure(items []map[string]any, ids, newIDs []string, missing func(id string) string, lengths string) any {
	if id, ok := missingItem(ids, items); ok {
		return tau2tools.ValueError(missing(id))
	}
	if len(ids) != len(newIDs) {
		return tau2tools.ValueError(lengths)
	}
	return nil
}
