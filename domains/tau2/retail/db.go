package retail

import (
	"github.com/voiceeval/schematools/domains/internal/pynum"
	"slices"
	"strings"

	"github.com/voiceeval/schematools/domains/tau2/tau2tools"
	"github.com/voiceeval/schematools/internal/pyvalue"
	"github.com/voiceeval/schematools/state"
)

// Tables of the retail DB.
const (
	tableProducts = "products"
	tableOrders   = "orders"
	tableUsers    = tau2tools.TableUsers
)

// Order statuses the tools test or set.
const (
	statusPending       = "pending"
	statusItemsModified = "pending (item modified)"
	statusDelivered     = "delivered"
	statusCancelled     = "cancelled"
	statusExchange      = "exchange requested"
	statusReturn        = "return requested"
)

// Transaction types of an order's payment history.
const (
	transactionPayment = "payment"
	transactionRefund  = "refund"
)

// transactionKeys are the keys of a payment_history entry, in the order of
// the Python tools' dict literals (see state.Order.Keep).
var transactionKeys = []string{"transaction_type", "amount", "payment_method_id"}

// sourceGiftCard is the source of the only payment methods with a
// balance; credit cards and PayPal have none.
const sourceGiftCard = "gift_card"

// orderKey is NeMo's normalisation of an order id: upper-cased, with the
// '#' tau2's ids start with added when it was left out ("w2378156" is
// "#W2378156").
func orderKey(id string) string {
	k := pyvalue.Upper(id)
	if !strings.HasPrefix(k, "#") {
		k = "#" + k
	}
	return k
}

// findOrder returns the order whose id is id (normalised by orderKey), or
// nil when there is none; an empty id finds nothing.
func findOrder(db map[string]any, id string) (any, error) {
	if id == "" {
		return nil, nil
	}
	orders, err := tau2tools.GetDict(db, tableOrders)
	if err != nil {
		return nil, err
	}
	return orders[orderKey(id)], nil
}

// findProduct returns the product whose id is key (matched exactly), or
// nil. key may be any JSON value: order items name their product.
func findProduct(db map[string]any, key any) (any, error) {
	products, err := tau2tools.GetDict(db, tableProducts)
	if err != nil {
		return nil, err
	}
	return tau2tools.GetKey(products, key)
}

// findItem returns the variant whose item id is id in the first product
// that lists it, or nil. Products are walked in product-id order, where
// Python walks them in file order: in the tau2 data an item id belongs to
// one product only, so the two agree.
func findItem(db map[string]any, id string) (any, error) {
	if id == "" {
		return nil, nil
	}
	products, err := tableOf(db, tableProducts, "values")
	if err != nil {
		return nil, err
	}
	for _, key := range tau2tools.SortedKeys(products) {
		product, err := tau2tools.AsDict(products[key])
		if err != nil {
			return nil, err
		}
		variants := product["variants"]
		if m, ok := variants.(map[string]any); ok {
			if v, found := m[id]; found {
				return v, nil
			}
			continue
		}
		found, err := tau2tools.PyIn(id, variants)
		if err != nil || !found {
			if err != nil {
				return nil, err
			}
			continue
		}
		// Python goes on to index the list or the string with the id.
		if _, isList := variants.([]any); isList {
			return nil, tau2tools.Raise("TypeError", "list indices must be integers or slices, not str")
		}
		return nil, tau2tools.Raise("TypeError", "string indices must be integers, not 'str'")
	}
	return nil, nil
}

// findVariant returns the variant new of the product productID, or nil
// when the product or the variant does not exist.
func findVariant(db map[string]any, productID any, id string) (map[string]any, error) {
	productV, err := findProduct(db, productID)
	if err != nil || productV == nil {
		return nil, err
	}
	product, err := tau2tools.AsDict(productV)
	if err != nil {
		return nil, err
	}
	variants, err := tau2tools.GetDictOr(product, "variants")
	if err != nil {
		return nil, err
	}
	v := variants[id]
	if v == nil {
		return nil, nil
	}
	return tau2tools.AsDict(v)
}

// tableOf is Python's (db.get(name) or {}) where one of its views —
// method, "items" or "values" — is walked: a table that is not a dict is
// an AttributeError.
func tableOf(db map[string]any, name, method string) (map[string]any, error) {
	v := db[name]
	if !pyvalue.Truthy(v) {
		return nil, nil
	}
	table, ok := v.(map[string]any)
	if !ok {
		return nil, tau2tools.Raise("AttributeError", "'%s' object has no attribute '%s'", pyvalue.TypeName(v), method)
	}
	return table, nil
}

// orderOf looks the order up. An unknown id gives the not_found result to
// answer with (nil otherwise), naming the id as given.
func orderOf(db map[string]any, id string) (map[string]any, any, error) {
	orderV, err := findOrder(db, id)
	if err != nil {
		return nil, nil, err
	}
	if orderV == nil {
		return nil, tau2tools.NotFound("Order " + id + " not found"), nil
	}
	order, err := tau2tools.AsDict(orderV)
	return order, nil, err
}

// ownOrder looks the order up as orderOf does and returns it for
// changing: the write's own copy (state.Writer.Own).
func ownOrder(w *state.Writer, id string) (map[string]any, any, error) {
	if _, failure, err := orderOf(w.DB, id); failure != nil || err != nil {
		return nil, failure, err
	}
	order, err := w.Own(tableOrders, orderKey(id))
	return order, nil, err
}

// ownUser returns the user record that FindUser found for key (a user id
// read from an order), for changing: the write's own copy.
func ownUser(w *state.Writer, key any) (map[string]any, error) {
	id, _ := key.(string) // FindUser finds a user by a string id only
	if id != "" {
		id = pyvalue.Lower(id)
	}
	return w.Own(tableUsers, id)
}

// userOf looks up the user an order belongs to; an unknown one gives the
// not_found result "User not found".
func userOf(db map[string]any, order map[string]any) (any, any, error) {
	user, err := tau2tools.FindUser(db, order["user_id"])
	if err != nil {
		return nil, nil, err
	}
	if user == nil {
		return nil, tau2tools.NotFound("User not found"), nil
	}
	return user, nil, nil
}

// payerOf looks up the user of the order, then the payment method id of
// that user: the checks every tool that charges or refunds makes, with
// the not_found results "User not found" and "Payment method not found".
func payerOf(db map[string]any, order map[string]any, id string) (user any, method map[string]any, failure any, err error) {
	if user, failure, err = userOf(db, order); failure != nil || err != nil {
		return nil, nil, failure, err
	}
	methods, err := tau2tools.PaymentMethods(user)
	if err != nil {
		return nil, nil, nil, err
	}
	m := methods[id]
	if m == nil {
		return nil, nil, tau2tools.NotFound("Payment method not found"), nil
	}
	if method, err = tau2tools.AsDict(m); err != nil {
		return nil, nil, nil, err
	}
	return user, method, nil, nil
}

// isGiftCard reports whether a payment method is a gift card, the only
// kind with a balance.
func isGiftCard(method map[string]any) bool { return pyvalue.Equal(method["source"], sourceGiftCard) }

// balanceOf is a gift card's (balance or 0).
func balanceOf(method map[string]any) (pyvalue.Num, error) {
	return pynum.NumOrZero(method, "balance")
}

// balancePlus returns round((balance or 0) + delta, 2), the gift card
// balance after a refund of delta (or a charge of -delta): always a float.
func balancePlus(method map[string]any, delta pyvalue.Num) (any, error) {
	balance, err := balanceOf(method)
	if err != nil {
		return nil, err
	}
	sum, err := balance.Add(delta)
	if err != nil {
		return nil, err
	}
	f, err := sum.Float64()
	if err != nil {
		return nil, tau2tools.Exception(err)
	}
	rounded, err := pyvalue.Round2(f)
	return pynum.DBNumber(rounded), err
}

// itemsOf returns the items of an order, Python's (order.get("items") or
// []), each of which must be a dict.
func itemsOf(order map[string]any) ([]map[string]any, error) {
	list, err := tau2tools.GetListOr(order, "items")
	if err != nil {
		return nil, err
	}
	items := make([]map[string]any, len(list))
	for i, v := range list {
		if items[i], err = tau2tools.AsDict(v); err != nil {
			return nil, err
		}
	}
	return items, nil
}

// missingItem returns the first id of ids listed more often than the
// order holds it (an id the order does not hold at all included), and
// whether there is one.
func missingItem(ids []string, items []map[string]any) (string, bool) {
	held := make(map[string]int, len(items))
	for _, item := range items {
		if id, ok := item["item_id"].(string); ok {
			held[id]++
		}
	}
	asked := make(map[string]int, len(ids))
	for _, id := range ids {
		asked[id]++
	}
	for _, id := range ids {
		if asked[id] > held[id] {
			return id, true
		}
	}
	return "", false
}

// firstItem returns the first item of the order with the item id, or nil.
func firstItem(items []map[string]any, id string) map[string]any {
	for _, item := range items {
		if pyvalue.Equal(item["item_id"], id) {
			return item
		}
	}
	return nil
}

// sortedIDs returns a sorted copy of ids, as Python's sorted() orders
// strings (by code point, which UTF-8 byte order keeps).
func sortedIDs(ids []string) []any {
	s := slices.Clone(ids)
	slices.Sort(s)
	out := make([]any, len(s))
	for i, id := range s {
		out[i] = id
	}
	return out
}
