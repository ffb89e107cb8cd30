package coffee

import (
	"context"
	"encoding/json"
	"errors"
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

var recorder = tool.Recorder{ActionTypes: ActionTypes}

// errNoDB is answered as a structured db_not_initialized result.
var errNoDB = errors.New("the coffee-shop DB is not loaded")

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
func NewGetMenu(opts ...tool.Option) (*tool.Typed[struct{}, any], error) {
	return NewGetMenuWith(MenuOptions{}, opts...)
}

// NewGetMenuWith builds get_menu configured by a scenario's options.
func NewGetMenuWith(mo MenuOptions, opts ...tool.Option) (*tool.Typed[struct{}, any], error) {
	return tool.New(NameGetMenu, "List the menu: every item with its price per size.",
		func(_ context.Context, st *state.Shared, _ struct{}) (any, error) {
			var items []MenuItem
			err := st.View(func(db map[string]any) error {
				menu, ok := db["menu"].(map[string]any)
				if !ok {
					return errNoDB
				}
				for id, v := range menu {
					if len(mo.Items) > 0 && !slices.Contains(mo.Items, id) {
						continue
					}
					m, _ := v.(map[string]any)
					name, _ := m["name"].(string)
					prices, _ := state.Clone(m["prices"]).(map[string]any)
					items = append(items, MenuItem{ItemID: id, Name: name, Prices: prices})
				}
				return nil
			})
			if err != nil {
				return tool.Failure(ErrorDBNotInitialized, err.Error()), nil
			}
			slices.SortFunc(items, func(a, b MenuItem) int { return strings.Compare(a.ItemID, b.ItemID) })
			return items, nil
		}, opts...)
}

// OrderLine is one line of an order.
type OrderLine struct {
	ItemID   string `json:"item_id" jsonschema_description:"Menu item id, from get_menu."`
	Size     string `json:"size" jsonschema:"enum=small,enum=medium,enum=large" validate:"oneof=small medium large"`
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
func NewPlaceOrder(opts ...tool.Option) (*tool.Typed[PlaceOrderParams, any], error) {
	return tool.New(NamePlaceOrder, "Place an order for a customer. Returns the order with its id and total.",
		func(ctx context.Context, st *state.Shared, p PlaceOrderParams) (any, error) {
			var order Order
			var failure *tool.FailureResult
			err := st.Update(func(db map[string]any) error {
				menu, okMenu := db["menu"].(map[string]any)
				orders, okOrders := db["orders"].(map[string]any)
				if !okMenu || !okOrders {
					return errNoDB
				}
				total := 0.0
				for _, line := range p.Items {
					price, problem := priceOf(menu, line)
					if problem != "" {
						f := tool.Failure(ErrorNotFound, problem)
						failure = &f
						return nil // refused before anything was written
					}
					total += price * float64(line.Quantity)
				}
				order = Order{
					OrderID:  fmt.Sprintf("ORD-%03d", len(orders)+1),
					Customer: p.Customer,
					Items:    p.Items,
					Total:    math.Round(total*100) / 100,
					Status:   "placed",
				}
				orders[order.OrderID] = orderRecord(order)
				return nil
			})
			switch {
			case errors.Is(err, errNoDB):
				return tool.Failure(ErrorDBNotInitialized, err.Error()), nil
			case err != nil:
				return nil, err
			case failure != nil:
				return *failure, nil
			}
			recorder.Record(ctx, st, state.NewAction(ActionPlaceOrder,
				map[string]any{"customer": p.Customer, "items": linesRecord(p.Items)},
				map[string]any{"order_id": order.OrderID, "total": order.Total}))
			return order, nil
		}, opts...)
}

// OrderIDParams select one order.
type OrderIDParams struct {
	OrderID string `json:"order_id" jsonschema_description:"The order id, e.g. ORD-001."`
}

// NewOrderStatus builds order_status, which returns one order.
func NewOrderStatus(opts ...tool.Option) (*tool.Typed[OrderIDParams, any], error) {
	return tool.New(NameOrderStatus, "Get an order's items, total and status.",
		func(_ context.Context, st *state.Shared, p OrderIDParams) (any, error) {
			var res any
			err := st.View(func(db map[string]any) error {
				orders, ok := db["orders"].(map[string]any)
				if !ok {
					return errNoDB
				}
				o, ok := orders[p.OrderID]
				if !ok {
					res = tool.Failure(ErrorNotFound, "Order "+p.OrderID+" not found")
					return nil
				}
				res = state.Clone(o)
				return nil
			})
			if err != nil {
				return tool.Failure(ErrorDBNotInitialized, err.Error()), nil
			}
			return res, nil
		}, opts...)
}

// CancelOrderParams are the arguments of cancel_order.
type CancelOrderParams struct {
	OrderID string `json:"order_id" jsonschema_description:"The order id, e.g. ORD-001."`
	Reason  string `json:"reason" jsonschema:"enum=changed my mind,enum=ordered by mistake,enum=took too long" validate:"oneof='changed my mind' 'ordered by mistake' 'took too long'"`
}

// NewCancelOrder builds cancel_order, which cancels a placed order and
// records a cancel_order action. Orders that do not exist or are already
// cancelled are refused without a change.
func NewCancelOrder(opts ...tool.Option) (*tool.Typed[CancelOrderParams, any], error) {
	return tool.New(NameCancelOrder, "Cancel a placed order.",
		func(ctx context.Context, st *state.Shared, p CancelOrderParams) (any, error) {
			var res any
			err := st.Update(func(db map[string]any) error {
				orders, ok := db["orders"].(map[string]any)
				if !ok {
					return errNoDB
				}
				o, ok := orders[p.OrderID].(map[string]any)
				switch {
				case !ok:
					res = tool.Failure(ErrorNotFound, "Order "+p.OrderID+" not found")
				case o["status"] != "placed":
					res = tool.Failure(ErrorValue, fmt.Sprintf("Order %s is %v and cannot be cancelled", p.OrderID, o["status"]))
				default:
					o["status"] = "cancelled"
					o["cancel_reason"] = p.Reason
					res = state.Clone(o)
				}
				return nil
			})
			if err != nil {
				return tool.Failure(ErrorDBNotInitialized, err.Error()), nil
			}
			if _, failed := res.(tool.FailureResult); !failed {
				recorder.Record(ctx, st, state.NewAction(ActionCancelOrder,
					map[string]any{"order_id": p.OrderID, "reason": p.Reason},
					map[string]any{"status": "cancelled"}))
			}
			return res, nil
		}, opts...)
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
