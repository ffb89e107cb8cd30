package coffee

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// Tool names.
const (
	NameGetMenu     = "get_menu"
	NamePlaceOrder  = "place_order"
	NameOrderStatus = "order_status"
	NameCancelOrder = "cancel_order"
)

// Error types of the domain's structured errors.
const (
	ErrorNotFound         = "not_found"
	ErrorValue            = "value_error"
	ErrorDBNotInitialized = "db_not_initialized"
)

// messageDBNotLoaded is the message of the db_not_initialized result.
const messageDBNotLoaded = "the coffee-shop DB is not loaded"

// coffeeDB is how the tools reach the DB: a DB that is missing or empty,
// or lacks a table a tool needs, is answered with the
// db_not_initialized result; write tools record with the domain's action
// types.
var coffeeDB = tool.DB{
	NotLoaded: tool.Failure(ErrorDBNotInitialized, messageDBNotLoaded),
	Recorder:  tool.Recorder{ActionTypes: ActionTypes()},
}

// ordersOnly names the table the write tools change.
var ordersOnly = []string{"orders"}

// MenuOptions are the scenario keyword arguments of get_menu.
type MenuOptions struct {
	// Items limits the menu to these item ids, for scenarios where only part
	// of the menu is on offer. Empty means the whole menu.
	Items []string `json:"items,omitempty"`
}

// MenuItem is one entry of get_menu's result.
type MenuItem struct {
	ItemID string         `json:"item_id"`
	Name   string         `json:"name"`
	Prices map[string]any `json:"prices"`
}

// NewGetMenu builds get_menu, which lists the menu sorted by item id.
func NewGetMenu(opts *tool.Options) (*tool.Typed[struct{}], error) {
	return NewGetMenuWith(MenuOptions{}, opts)
}

// NewGetMenuWith builds get_menu configured by a scenario's options.
func NewGetMenuWith(mo MenuOptions, opts *tool.Options) (*tool.Typed[struct{}], error) {
	return tool.New(NameGetMenu, "List the menu: every item with its price per size.",
		func(_ context.Context, st *state.Shared, _ struct{}) (any, error) {
			return coffeeDB.Read(st, func(db map[string]any) (any, error) {
				menu, ok := db["menu"].(map[string]any)
				if !ok {
					return coffeeDB.NotLoaded, nil
				}
				var items []MenuItem
				for id, v := range menu {
					if len(mo.Items) > 0 && !slices.Contains(mo.Items, id) {
						continue
					}
					m, _ := v.(map[string]any)
					name, _ := m["name"].(string)
					prices, _ := state.Clone(m["prices"]).(map[string]any)
					items = append(items, MenuItem{ItemID: id, Name: name, Prices: prices})
				}
				slices.SortFunc(items, func(a, b MenuItem) int { return strings.Compare(a.ItemID, b.ItemID) })
				return items, nil
			})
		}, opts)
}

// OrderLine is one line of an order.
type OrderLine struct {
	ItemID   string `json:"item_id" jsonschema_description:"Menu item id, from get_menu."`
	Size     string `json:"size" validate:"oneof=small medium large"`
	Quantity int    `json:"quantity" jsonschema_description:"How many, 1 to 10." validate:"min=1,max=10"`
}

// PlaceOrderParams are the arguments of place_order.
type PlaceOrderParams struct {
	Customer string      `json:"customer" jsonschema_description:"The customer's name." validate:"min=1,max=80"`
	Items    []OrderLine `json:"items" validate:"min=1,max=20,dive"`
}

// Order is an order as stored in the DB and returned by the tools.
type Order struct {
	OrderID  string      `json:"order_id"`
	Customer string      `json:"customer"`
	Items    []OrderLine `json:"items"`
	Total    float64     `json:"total"`
	Status   string      `json:"status"`
}

// NewPlaceOrder builds place_order, which prices the items against the
// menu, stores the order as "placed" with an id ORD-001, ORD-002, … and
// records a place_order action. Unknown items or sizes are refused before
// anything is written.
func NewPlaceOrder(opts *tool.Options) (*tool.Typed[PlaceOrderParams], error) {
	return tool.New(NamePlaceOrder, "Place an order for a customer. Returns the order with its id and total.",
		func(ctx context.Context, st *state.Shared, p PlaceOrderParams) (any, error) {
			return coffeeDB.Write(ctx, st, ordersOnly, func(db map[string]any) (any, state.Action, error) {
				menu, okMenu := db["menu"].(map[string]any)
				orders, okOrders := db["orders"].(map[string]any)
				if !okMenu || !okOrders {
					return coffeeDB.NotLoaded, nil, nil
				}
				total := 0.0
				for _, line := range p.Items {
					price, problem := priceOf(menu, line)
					if problem != "" {
						return tool.Failure(ErrorNotFound, problem), nil, nil // refused before anything was written
					}
					total += price * float64(line.Quantity)
				}
				order := Order{
					OrderID:  fmt.Sprintf("ORD-%03d", len(orders)+1),
					Customer: p.Customer,
					Items:    p.Items,
					Total:    math.Round(total*100) / 100,
					Status:   "placed",
				}
				orders[order.OrderID] = orderRecord(order)
				return order, state.NewAction(ActionPlaceOrder,
					map[string]any{"customer": p.Customer, "items": linesRecord(p.Items)},
					map[string]any{"order_id": order.OrderID, "total": order.Total}), nil
			})
		}, opts)
}

// OrderIDParams select one order.
type OrderIDParams struct {
	OrderID string `json:"order_id" jsonschema_description:"The order id, e.g. ORD-001."`
}

// NewOrderStatus builds order_status, which returns one order.
func NewOrderStatus(opts *tool.Options) (*tool.Typed[OrderIDParams], error) {
	return tool.New(NameOrderStatus, "Get an order's items, total and status.",
		func(_ context.Context, st *state.Shared, p OrderIDParams) (any, error) {
			return coffeeDB.Read(st, func(db map[string]any) (any, error) {
				orders, ok := db["orders"].(map[string]any)
				if !ok {
					return coffeeDB.NotLoaded, nil
				}
				o, ok := orders[p.OrderID]
				if !ok {
					return tool.Failure(ErrorNotFound, "Order "+p.OrderID+" not found"), nil
				}
				return state.Clone(o), nil
			})
		}, opts)
}

// CancelOrderParams are the arguments of cancel_order.
type CancelOrderParams struct {
	OrderID string `json:"order_id" jsonschema_description:"The order id, e.g. ORD-001."`
	Reason  string `json:"reason" validate:"oneof='changed my mind' 'ordered by mistake' 'took too long'"`
}

// NewCancelOrder builds cancel_order, which cancels a placed order and
// records a cancel_order action. Orders that do not exist or are already
// cancelled are refused without a change.
func NewCancelOrder(opts *tool.Options) (*tool.Typed[CancelOrderParams], error) {
	return tool.New(NameCancelOrder, "Cancel a placed order.",
		func(ctx context.Context, st *state.Shared, p CancelOrderParams) (any, error) {
			return coffeeDB.Write(ctx, st, ordersOnly, func(db map[string]any) (any, state.Action, error) {
				orders, ok := db["orders"].(map[string]any)
				if !ok {
					return coffeeDB.NotLoaded, nil, nil
				}
				o, ok := orders[p.OrderID].(map[string]any)
				switch {
				case !ok:
					return tool.Failure(ErrorNotFound, "Order "+p.OrderID+" not found"), nil, nil
				case o["status"] != "placed":
					return tool.Failure(ErrorValue, fmt.Sprintf("Order %s is %v and cannot be cancelled", p.OrderID, o["status"])), nil, nil
				}
				o["status"] = "cancelled"
				o["cancel_reason"] = p.Reason
				return state.Clone(o), state.NewAction(ActionCancelOrder,
					map[string]any{"order_id": p.OrderID, "reason": p.Reason},
					map[string]any{"status": "cancelled"}), nil
			})
		}, opts)
}

// priceOf returns the menu price of one line, or a message for the model
// saying why the line cannot be priced.
func priceOf(menu map[string]any, line OrderLine) (float64, string) {
	item, ok := menu[line.ItemID].(map[string]any)
	if !ok {
		return 0, "Item " + line.ItemID + " is not on the menu"
	}
	prices, _ := item["prices"].(map[string]any)
	p, ok := prices[line.Size]
	if !ok {
		return 0, "Item " + line.ItemID + " does not come in size " + line.Size
	}
	f, err := number(p)
	if err != nil {
		return 0, "Item " + line.ItemID + " has no valid price"
	}
	return f, ""
}

// number reads a DB number, whatever Go type holds it.
func number(v any) (float64, error) {
	switch x := v.(type) {
	case json.Number:
		return x.Float64()
	case float64:
		return x, nil
	case int:
		return float64(x), nil
	case string:
		return strconv.ParseFloat(x, 64)
	}
	return 0, fmt.Errorf("not a number: %v", v)
}

// orderRecord is the JSON-tree form of an order, as stored in the DB.
func orderRecord(o Order) map[string]any {
	return map[string]any{
		"order_id": o.OrderID,
		"customer": o.Customer,
		"items":    linesRecord(o.Items),
		"total":    o.Total,
		"status":   o.Status,
	}
}

func linesRecord(lines []OrderLine) []any {
	out := make([]any, len(lines))
	for i, l := range lines {
		out[i] = map[string]any{"item_id": l.ItemID, "size": l.Size, "quantity": l.Quantity}
	}
	return out
}
