package basictools

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"math"

	"github.com/voiceeval/schematools/domains/nemo/internal/nemostate"
	"github.com/voiceeval/schematools/domains/nemo/nemodata"
	"github.com/voiceeval/schematools/internal/pyvalue"
	"github.com/voiceeval/schematools/registry"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// Domain is the registry domain of the basic tools: NeMo registers them
// in its default domain, which every scenario falls back to.
const Domain = state.DefaultDomain

// SchemaDomain is the domain tool_schemas.jsonl records the basic tools
// under (qa and simple_qa scenarios); PlaceOrderTool is recorded under
// "restaurant", where its scenarios are.
const SchemaDomain = "basic_tools"

// Tool names, as NeMo registers them (the class names).
const (
	NameGetCityWeather     = "GetCityWeatherTool"
	NameReadFile           = "ReadFileTool"
	NamePlaceOrder         = "PlaceOrderTool"
	NameSaveQuestionAnswer = "SaveQuestionAnswerTool"
)

// DescriptionOptions are the construction arguments of GetCityWeatherTool
// and SaveQuestionAnswerTool: the original replaces the description when
// one is given (None keeps the default, an empty string is kept).
type DescriptionOptions struct {
	Description *string `json:"description,omitempty"`
}

// PlaceOrderOptions are PlaceOrderTool's construction arguments.
type PlaceOrderOptions struct {
	// AutoValidate turns the item and total checks on when truthy in
	// Python's sense: scenarios pass the string "False", which is.
	AutoValidate any `json:"auto_validate,omitempty"`
	// ValidItemNames, when not empty, are the only item names accepted
	// (with AutoValidate).
	ValidItemNames []string `json:"valid_item_names,omitempty"`
}

func stateOr(st *state.Shared) *state.Shared {
	if st == nil {
		return state.New()
	}
	return st
}

func spec(domain, name string, desc *string, params ...string) (nemostate.Spec, error) {
	s, err := nemostate.Presented(domain, name)
	if err != nil {
		return nemostate.Spec{}, err
	}
	sp := nemostate.SpecOf(s, "")
	if desc != nil {
		sp.Description = *desc
	}
	sp.Params = params // none of the basic tools takes **kwargs
	return sp, nil
}

// NewGetCityWeather builds GetCityWeatherTool, which answers the same
// sunny weather for any city.
func NewGetCityWeather(o DescriptionOptions) (tool.Tool, error) {
	sp, err := spec(SchemaDomain, NameGetCityWeather, o.Description, "city_name")
	if err != nil {
		return nil, err
	}
	sp.Run = func(_ context.Context, a map[string]any) (any, error) {
		return nemostate.Of("city", a["city_name"], "weather", "sunny",
			"temperature", "20 degrees Celsius", "uv_index", "low"), nil
	}
	return nemostate.NewTool(sp), nil
}

// NewSaveQuestionAnswer builds SaveQuestionAnswerTool, which sends the
// question and answer as a scenario summary ("<final_response>{json}
// </final_response>") before acknowledging.
func NewSaveQuestionAnswer(st *state.Shared, o DescriptionOptions, logger *slog.Logger) (tool.Tool, error) {
	st = stateOr(st)
	sp, err := spec(SchemaDomain, NameSaveQuestionAnswer, o.Description, "question", "answer")
	if err != nil {
		return nil, err
	}
	sp.Run = func(ctx context.Context, a map[string]any) (any, error) {
		text, err := nemostate.Dumps(nemostate.Of("question", a["question"], "answer", a["answer"]))
		if err != nil {
			return nil, err
		}
		nemostate.SendSummary(ctx, st, text, logger)
		return nemostate.Of("success", true, "message", "Question and answer logged."), nil
	}
	return nemostate.NewTool(sp), nil
}

// requiredItemKeys are the keys every order item must have, checked in
// this order.
var requiredItemKeys = []string{"name", "unit_price", "quantity"}

// NewPlaceOrder builds PlaceOrderTool, which checks an order (when
// AutoValidate is truthy), sends it as a scenario summary and confirms it.
func NewPlaceOrder(st *state.Shared, o PlaceOrderOptions, logger *slog.Logger) (tool.Tool, error) {
	st = stateOr(st)
	sp, err := spec("restaurant", NamePlaceOrder, nil, "items", "customer_name", "customer_phone", "total_price")
	if err != nil {
		return nil, err
	}
	validate := pyvalue.Truthy(nemostate.Py(nemostate.FromValue(o.AutoValidate)))
	var valid []any
	for _, n := range o.ValidItemNames {
		valid = append(valid, n)
	}
	sp.Run = func(ctx context.Context, a map[string]any) (any, error) {
		items, name, phone, total := a["items"], a["customer_name"], a["customer_phone"], a["total_price"]
		switch {
		case name == nil:
			return nil, pyvalue.Raise("ValueError", "The `customer_name` parameter is required.")
		case total == nil:
			return nil, pyvalue.Raise("ValueError", "The `total_price` parameter is required.")
		case items == nil:
			return nil, pyvalue.Raise("ValueError", "The `items` parameter is required.")
		}
		list, err := nemostate.Iter(items)
		if err != nil {
			return nil, err
		}
		calculated := 0.0
		for _, item := range list {
			if validate {
				if err := validateItem(item, valid); err != nil {
					return nil, err
				}
			}
			price, err := itemFloat(item, "unit_price")
			if err != nil {
				return nil, err
			}
			qty, err := itemFloat(item, "quantity")
			if err != nil {
				return nil, err
			}
			calculated += price * qty
		}
		if validate {
			want, err := nemostate.Float(total)
			if err != nil {
				return nil, err
			}
			if !isClose(calculated, want) {
				return nil, pyvalue.Raise("ValueError", "The total price is incorrect. The calculated total price is %s but the expected total price is %s.",
					pyvalue.Repr(calculated), nemostate.Str(total))
			}
		}
		details, err := nemostate.Dumps(nemostate.Of("items", items, "customer_name", name, "customer_phone", phone, "total_price", total))
		if err != nil {
			return nil, err
		}
		nemostate.SendSummary(ctx, st, details, logger)
		return nemostate.Of("success", true,
			"message", fmt.Sprintf("The order has been placed successfully for the customer %s with the total price %s.", nemostate.Str(name), nemostate.Str(total)),
			"order_details", details), nil
	}
	return nemostate.NewTool(sp), nil
}

// itemFloat is float(item[key]).
func itemFloat(item any, key string) (float64, error) {
	v, err := nemostate.GetItem(item, key)
	if err != nil {
		return 0, err
	}
	return nemostate.Float(v)
}

// validateItem is the original's _validate_item with validation on.
func validateItem(item any, valid []any) error {
	for _, key := range requiredItemKeys {
		in, err := nemostate.Contains(key, item)
		if err != nil {
			return err
		}
		if !in {
			return pyvalue.Raise("ValueError", "Each item in the `items` parameter must have a `%s` key, but the item is: %s.", key, nemostate.Str(item))
		}
	}
	name, err := nemostate.GetItem(item, "name")
	if err != nil {
		return err
	}
	if len(valid) > 0 {
		in, err := nemostate.Contains(name, valid)
		if err != nil {
			return err
		}
		if !in {
			return pyvalue.Raise("ValueError", "The item %s is not on the menu. All valid item names are: %s.", nemostate.Str(name), pyvalue.Repr(valid))
		}
	}
	for _, c := range []struct{ key, what string }{{"unit_price", "unit price"}, {"quantity", "quantity"}} {
		f, err := itemFloat(item, c.key)
		if err != nil {
			return err
		}
		if f < 0 {
			name, err := nemostate.GetItem(item, "name")
			if err != nil {
				return err
			}
			return pyvalue.Raise("ValueError", "The %s of the item %s is negative. The %s must be non-negative.", c.what, nemostate.Str(name), c.what)
		}
	}
	return nil
}

// isClose is numpy.isclose(a, b) with its defaults (rtol 1e-05, atol
// 1e-08, NaN never close): |a-b| <= atol + rtol*|b| for finite values,
// a == b otherwise.
func isClose(a, b float64) bool {
	if math.IsInf(a, 0) || math.IsInf(b, 0) || math.IsNaN(a) || math.IsNaN(b) {
		return a == b
	}
	return math.Abs(a-b) <= 1e-08+1e-05*math.Abs(b)
}

// Register adds GetCityWeatherTool, ReadFileTool (reading the embedded
// basic_tools fixtures, nemodata's basic_tools/), PlaceOrderTool and
// SaveQuestionAnswerTool to r under [Domain] (the default domain).
// EndConversationTool, which NeMo's basic_tools.py also defines, is the
// harness's (registry.RegisterHarness).
func Register(r *registry.Tools) error {
	root, err := fs.Sub(nemodata.FS, "basic_tools")
	if err != nil {
		return err
	}
	return RegisterWithRoot(r, root)
}

// RegisterWithRoot is Register with ReadFileTool reading under root.
func RegisterWithRoot(r *registry.Tools, root fs.FS) error {
	return errors.Join(
		r.Register(Domain, NameGetCityWeather, registry.Configured(func(_ registry.Deps, o DescriptionOptions) (tool.Tool, error) {
			return NewGetCityWeather(o)
		})),
		r.Register(Domain, NameReadFile, registry.Plain(func(registry.Deps) (tool.Tool, error) {
			return NewReadFile(root)
		})),
		r.Register(Domain, NamePlaceOrder, registry.Configured(func(d registry.Deps, o PlaceOrderOptions) (tool.Tool, error) {
			return NewPlaceOrder(d.State, o, d.Logger)
		})),
		r.Register(Domain, NameSaveQuestionAnswer, registry.Configured(func(d registry.Deps, o DescriptionOptions) (tool.Tool, error) {
			return NewSaveQuestionAnswer(d.State, o, d.Logger)
		})),
	)
}
