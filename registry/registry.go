package registry

import (
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/voiceeval/schematools/internal/pyjson"
	"github.com/voiceeval/schematools/internal/toolname"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// Sentinel errors; test with [errors.Is].
var (
	// ErrDuplicate means a (domain, name) pair is already registered.
	ErrDuplicate = errors.New("already registered")
	// ErrNotFound means a name is in neither the domain nor the default
	// domain; the error lists what each holds.
	ErrNotFound = errors.New("not found")
)

// defaultDomain holds the names every domain can fall back to.
const defaultDomain = state.DefaultDomain

// table maps domain -> name -> T. It is safe for concurrent use.
type table[T any] struct {
	mu      sync.RWMutex
	domains map[string]*bucket[T]
}

type bucket[T any] struct {
	order   []string
	entries map[string]entry[T]
}

type entry[T any] struct {
	value T
	by    string // who registered it
}

func (r *table[T]) register(domain, name string, v T, by string) error {
	domain = normDomain(domain)
	if err := checkName("domain", domain); err != nil {
		return err
	}
	if err := checkName(r.noun()+" name", name); err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.domains == nil {
		r.domains = make(map[string]*bucket[T])
	}
	b := r.domains[domain]
	if b == nil {
		b = &bucket[T]{entries: make(map[string]entry[T])}
		r.domains[domain] = b
	}
	if prev, dup := b.entries[name]; dup {
		return fmt.Errorf("%s name collision in domain '%s': '%s' is %w by %s; cannot also register it from %s. "+
			"Rename one of them, or move one to a different domain", r.noun(), domain, name, ErrDuplicate, prev.by, by)
	}
	b.entries[name] = entry[T]{value: v, by: by}
	b.order = append(b.order, name)
	return nil
}

// lookup returns the value registered under (domain, name): from domain
// itself, or else from the default domain with a warning naming the domain
// that fell through. Otherwise the error wraps [ErrNotFound].
func (r *table[T]) lookup(domain, name string, logger *slog.Logger) (T, error) {
	domain = normDomain(domain)
	r.mu.RLock()
	if e, ok := r.get(domain, name); ok {
		r.mu.RUnlock()
		return e.value, nil
	}
	if domain != defaultDomain {
		if e, ok := r.get(defaultDomain, name); ok {
			r.mu.RUnlock()
			if logger == nil {
				logger = slog.Default()
			}
			logger.Warn(fmt.Sprintf("%s '%s' not found in domain '%s', falling back to '%s'",
				r.noun(), name, domain, defaultDomain),
				"domain", domain, "name", name, "registered_by", e.by)
			return e.value, nil
		}
	}
	nf := &notFoundError{
		Kind:      r.noun(),
		Domain:    domain,
		Name:      name,
		InDomain:  r.sortedNames(domain),
		InDefault: r.sortedNames(defaultDomain),
		Domains:   r.domainNames(),
	}
	r.mu.RUnlock()
	var zero T
	return zero, nf
}

func (r *table[T]) get(domain, name string) (entry[T], bool) {
	b := r.domains[domain]
	if b == nil {
		return entry[T]{}, false
	}
	e, ok := b.entries[name]
	return e, ok
}

// names returns the names registered in domain, in registration order.
func (r *table[T]) names(domain string) []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	b := r.domains[normDomain(domain)]
	if b == nil {
		return []string{}
	}
	return slices.Clone(b.order)
}

func (r *table[T]) domainNames() []string {
	out := make([]string, 0, len(r.domains))
	for d := range r.domains {
		out = append(out, d)
	}
	slices.Sort(out)
	return out
}

func (r *table[T]) sortedNames(domain string) []string {
	b := r.domains[domain]
	if b == nil {
		return []string{}
	}
	out := slices.Clone(b.order)
	slices.Sort(out)
	return out
}

// noun names what the table holds in messages.
func (r *table[T]) noun() string {
	var zero T
	if _, ok := any(zero).(Factory); ok {
		return "tool"
	}
	return "hooks"
}

// notFoundError reports a name found neither in its domain nor in the
// default domain, with what each holds.
type notFoundError struct {
	Kind      string   // what the registry holds, e.g. "tool"
	Domain    string   // the domain asked for
	Name      string   // the name asked for
	InDomain  []string // names in Domain, sorted
	InDefault []string // names in defaultDomain, sorted
	Domains   []string // every domain with entries, sorted
}

// Error reads like the Python original's KeyError, plus a hint when the
// domain itself is unknown:
// "tool 'X' not found in domain 'd' or 'default'. Available in 'd': ['A'].
// Available in 'default': ['B']."
func (e *notFoundError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s '%s' not found in domain '%s' or '%s'. Available in '%s': %s. Available in '%s': %s.",
		e.Kind, e.Name, e.Domain, defaultDomain, e.Domain, pyjson.ListRepr(e.InDomain), defaultDomain, pyjson.ListRepr(e.InDefault))
	if e.Domain != defaultDomain && !slices.Contains(e.Domains, e.Domain) {
		fmt.Fprintf(&b, " Domain '%s' is unknown; known domains: %s.", e.Domain, pyjson.ListRepr(e.Domains))
	}
	return b.String()
}

// Unwrap makes errors.Is(err, ErrNotFound) hold.
func (e *notFoundError) Unwrap() error { return ErrNotFound }

func normDomain(d string) string {
	if d == "" {
		return defaultDomain
	}
	return d
}

func checkName(what, name string) error {
	if err := toolname.Validate(name); err != nil {
		return fmt.Errorf("registry: %s %q: %w: %w", what, name, tool.ErrInvalidParams, err)
	}
	return nil
}

// caller describes who called Register: "pkg.Func (file.go:12)".
func caller(skip int) string {
	pc, file, line, ok := runtime.Caller(skip + 1)
	if !ok {
		return "an unknown caller"
	}
	name := "an unknown function"
	if f := runtime.FuncForPC(pc); f != nil {
		name = f.Name()
	}
	return fmt.Sprintf("%s (%s:%d)", name, filepath.Base(file), line)
}
