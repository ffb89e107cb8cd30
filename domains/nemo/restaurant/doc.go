// Package restaurant ports NVIDIA NeMo labs-Voice-Agent's restaurant
// ordering tools (restaurant_tools.py's GetMenuTool, and basic_tools.py's
// PlaceOrderTool, which the restaurant and fastbite scenarios use),
// registered under [Domain] ("restaurant").
//
// Contract:
//   - The model sees the original's schemas word for word, from the
//     shipped tool_schemas.jsonl (package nemodata).
//   - GetMenuTool returns {"menu": text}, the scenario's "menu" argument
//     as it is; it ignores call arguments.
//   - PlaceOrderTool is basictools.NewPlaceOrder, quirks included: the
//     scenarios' "auto_validate": "False" is a non-empty string, so the
//     checks are on (missing item keys, negative prices or quantities, a
//     total numpy.isclose refuses), each failure delivered as {"error":
//     str(exc)}; extra arguments are the original's TypeError.
//   - Neither tool keeps state; PlaceOrderTool pushes the order as a
//     scenario summary through the state's notifier.
package restaurant
