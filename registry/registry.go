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
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// DefaultDomain holds the names every domain can fall back to.
const DefaultDomain = state.DefaultDomain

// Sentinel errors; test with [errors.Is].
var (
	// ErrDuplicate means a (domain, name) pair is already registered.
	ErrDuplicate = errors.New("already registered")
	// ErrNotFound means a name is in neither the domain nor the default
	// domain. The error is a [*NotFoundError].
	ErrNotFound = errors.New("not found")
	// ErrInvalidName means a domain or name does not match
	// ^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$.
	ErrInvalidName = errors.New("invalid name")
)

// Registry maps domain -> name -> T. The zero value is an empty registry
// that logs through [slog.Default] and calls its entries "entry" in
// messages; see [New] for options. It is safe for concurrent use and must
// not be copied after first use.
type Registry[T any] struct {
	mu      sync.RWMutex
	domains map[string]*bucket[T]
	logger  *slog.Logger
	kind    string
}

type bucket[T any] struct {
	order   []string
	entries map[string]entry[T]
}

type entry[T any] struct {
	value T
	by    string // who registered it
}

// Option configures a [Registry] built by [New].
type Option func(*options)

type options struct {
	logger *slog.Logger
	kind   string
}

// WithLogger sets the logger that receives default-domain fallback
// warnings. The default is [slog.Default].
func WithLogger(l *slog.Logger) Option { return func(o *options) { o.logger = l } }

// WithKind names what the registry holds ("tool", "init function") in its
// messages: "tool name collision in domain 'coffee': …". The default is
// "entry".
func WithKind(kind string) Option { return func(o *options) { o.kind = kind } }

// New returns an empty registry.
func New[T any](opts ...Option) *Registry[T] {
	r := &Registry[T]{}
	r.configure(opts)
	return r
}

func (r *Registry[T]) configure(opts []Option) {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	r.logger, r.kind = o.logger, o.kind
}

// Register adds v under (domain, name); an empty domain means
// [DefaultDomain]. It fails, leaving the registry unchanged, when the pair
// is taken ([ErrDuplicate], naming both registrants) or a name is invalid
// ([ErrInvalidName]).
func (r *Registry[T]) Register(domain, name string, v T) error {
	return r.register(domain, name, v, caller(1))
}

// MustRegister is [Registry.Register] for package-level registration in
// init functions: it panics on error, which there is a programming error.
func (r *Registry[T]) MustRegister(domain, name string, v T) {
	if err := r.register(domain, name, v, caller(1)); err != nil {
		panic(err)
	}
}

func (r *Registry[T]) register(domain, name string, v T, by string) error {
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

// Resolved tells where a lookup found its value.
type Resolved struct {
	Domain   string // the domain that held the name: the one asked for, or DefaultDomain
	Name     string
	Fallback bool // the name came from DefaultDomain because the domain asked for lacked it
}

// Lookup returns the value registered under (domain, name): from domain
// itself, or else from [DefaultDomain] with a warning naming the domain that
// fell through. Otherwise the error is a [*NotFoundError] wrapping
// [ErrNotFound]. An empty domain means [DefaultDomain].
func (r *Registry[T]) Lookup(domain, name string) (T, error) {
	v, _, err := r.Resolve(domain, name)
	return v, err
}

// Resolve is [Registry.Lookup] that also reports where the value came from.
func (r *Registry[T]) Resolve(domain, name string) (T, Resolved, error) {
	domain = normDomain(domain)
	r.mu.RLock()
	if e, ok := r.get(domain, name); ok {
		r.mu.RUnlock()
		return e.value, Resolved{Domain: domain, Name: name}, nil
	}
	if domain != DefaultDomain {
		if e, ok := r.get(DefaultDomain, name); ok {
			r.mu.RUnlock()
			r.log().Warn(fmt.Sprintf("%s '%s' not found in domain '%s', falling back to '%s'",
				r.noun(), name, domain, DefaultDomain),
				"domain", domain, "name", name, "registered_by", e.by)
			return e.value, Resolved{Domain: DefaultDomain, Name: name, Fallback: true}, nil
		}
	}
	nf := &NotFoundError{
		Kind:      r.noun(),
		Domain:    domain,
		Name:      name,
		InDomain:  r.sortedNames(domain),
		InDefault: r.sortedNames(DefaultDomain),
		Domains:   r.domainNames(),
	}
	r.mu.RUnlock()
	var zero T
	return zero, Resolved{}, nf
}

// Get returns the value registered under exactly (domain, name), with no
// fallback to the default domain. An empty domain means [DefaultDomain].
func (r *Registry[T]) Get(domain, name string) (T, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	e, ok := r.get(normDomain(domain), name)
	return e.value, ok
}

func (r *Registry[T]) get(domain, name string) (entry[T], bool) {
	b := r.domains[domain]
	if b == nil {
		return entry[T]{}, false
	}
	e, ok := b.entries[name]
	return e, ok
}

// Names returns the names registered in domain, in registration order; an
// unknown domain has none.
func (r *Registry[T]) Names(domain string) []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	b := r.domains[normDomain(domain)]
	if b == nil {
		return []string{}
	}
	return slices.Clone(b.order)
}

// All returns every entry as "domain.name", sorted.
func (r *Registry[T]) All() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	var out []string
	for d, b := range r.domains {
		for _, n := range b.order {
			out = append(out, d+"."+n)
		}
	}
	slices.Sort(out)
	if out == nil {
		out = []string{}
	}
	return out
}

// Domains returns the domains that hold at least one entry, sorted.
func (r *Registry[T]) Domains() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.domainNames()
}

func (r *Registry[T]) domainNames() []string {
	out := make([]string, 0, len(r.domains))
	for d := range r.domains {
		out = append(out, d)
	}
	slices.Sort(out)
	return out
}

func (r *Registry[T]) sortedNames(domain string) []string {
	b := r.domains[domain]
	if b == nil {
		return []string{}
	}
	out := slices.Clone(b.order)
	slices.Sort(out)
	return out
}

func (r *Registry[T]) noun() string {
	if r.kind == "" {
		return "entry"
	}
	return r.kind
}

func (r *Registry[T]) log() *slog.Logger {
	if r.logger != nil {
		return r.logger
	}
	return slog.Default()
}

// NotFoundError reports a name found neither in its domain nor in the
// default domain, with what each holds.
type NotFoundError struct {
	Kind      string   // what the registry holds, e.g. "tool"
	Domain    string   // the domain asked for
	Name      string   // the name asked for
	InDomain  []string // names in Domain, sorted
	InDefault []string // names in DefaultDomain, sorted
	Domains   []string // every domain with entries, sorted
}

// Error reads like the Python original's KeyError, plus a hint when the
// domain itself is unknown:
// "tool 'X' not found in domain 'd' or 'default'. Available in 'd': ['A'].
// Available in 'default': ['B']."
func (e *NotFoundError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s '%s' not found in domain '%s' or '%s'. Available in '%s': %s. Available in '%s': %s.",
		e.Kind, e.Name, e.Domain, DefaultDomain, e.Domain, pyjson.ListRepr(e.InDomain), DefaultDomain, pyjson.ListRepr(e.InDefault))
	if e.Domain != DefaultDomain && !slices.Contains(e.Domains, e.Domain) {
		fmt.Fprintf(&b, " Domain '%s' is unknown; known domains: %s.", e.Domain, pyjson.ListRepr(e.Domains))
	}
	return b.String()
}

// Unwrap makes errors.Is(err, ErrNotFound) hold.
func (e *NotFoundError) Unwrap() error { return ErrNotFound }

func normDomain(d string) string {
	if d == "" {
		return DefaultDomain
	}
	return d
}

func checkName(what, name string) error {
	if err := tool.ValidateName(name); err != nil {
		return fmt.Errorf("registry: %s %q: %w: %w", what, name, ErrInvalidName, err)
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
