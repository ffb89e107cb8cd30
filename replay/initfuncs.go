package replay

import (
	"fmt"

	"github.com/voiceeval/schematools/internal/pyjson"
	"github.com/voiceeval/schematools/registry"
)

// Sides of a two-sided scenario.
const (
	SideAgent = "agent"
	SideUser  = "user"
)

// sideOf maps a tau2 env_type to a side: "assistant" and "agent" are the
// agent, "user" is the user; anything else is returned as is.
func sideOf(envType string) string {
	if envType == "assistant" {
		return SideAgent
	}
	return envType
}

// InitFunc is an initialisation function: it mutates db according to args
// and returns an error when it cannot.
type InitFunc func(db map[string]any, args map[string]any) error

// InitFuncs is a per-domain registry of initialisation functions, keyed by
// the tau2 func_name.
type InitFuncs = registry.Registry[InitFunc]

// NewInitFuncs returns an empty registry of initialisation functions.
func NewInitFuncs() *InitFuncs {
	return registry.New[InitFunc](registry.WithKind("initialization function"))
}

// InitResult reports an [ApplyInit]: Success is false when any action
// failed; Errors say which and why, in action order.
type InitResult struct {
	Success bool     `json:"success"`
	Errors  []string `json:"errors"`
}

// NoDBMessage is the error text ApplyInit reports when it is given no DB.
const NoDBMessage = "No db provided to apply_initialization_actions; the bot handler is responsible for " +
	"selecting shared_state['db'] (agent side) or shared_state['user_db'] (user side) and passing it here."

// ApplyInit runs actions on db in order, as the Python original does: an
// unknown function name, or a function that fails or panics, is an error
// for that action and the rest still run; nothing is rolled back. Names are
// looked up in the domain only (no default fallback). The actions' sides
// are not consulted: the caller picks the DB.
func ApplyInit(funcs *InitFuncs, domain string, actions []InitAction, db map[string]any) InitResult {
	res := InitResult{Success: true, Errors: []string{}}
	if db == nil {
		res.Success = false
		res.Errors = append(res.Errors, NoDBMessage)
		return res
	}
	for i, a := range actions {
		if a.Invalid != "" {
			res.Errors = append(res.Errors, fmt.Sprintf("[action %d] %s", i, a.Invalid))
			continue
		}
		fn, names, ok := lookup(funcs, domain, a.FuncName)
		if !ok || fn == nil {
			res.Errors = append(res.Errors, fmt.Sprintf("[action %d] No initialization function '%s' registered under domain='%s'. Available: %s.",
				i, a.FuncName, domain, pyjson.ListRepr(names)))
			continue
		}
		args := a.Arguments
		if args == nil {
			args = map[string]any{}
		}
		if err := callInit(fn, db, args); err != nil {
			res.Errors = append(res.Errors, fmt.Sprintf("[action %d] '%s' raised: %v", i, a.FuncName, err))
		}
	}
	res.Success = len(res.Errors) == 0
	return res
}

func callInit(fn InitFunc, db, args map[string]any) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return fn(db, args)
}
