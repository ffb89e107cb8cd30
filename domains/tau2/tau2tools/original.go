package tau2tools

import (
	"github.com/voiceeval/schematools/domains/internal/tau2orig"
	"github.com/voiceeval/schematools/tool"
)

// New builds a tau2 tool: a typed tool named name, validated in pydantic's
// lax mode, that presents the Python original's description and
// properties (as tau2data records them, through tool.WithProperties) while its checks stay
// those of P, whose fields must name exactly the original's properties.
// opts follow, so a later tool.WithProperties(nil) presents P's own
// schema (the tests compare it with the original's). New fails when the
// original is not recorded or P does not fit it.
func New[P any](domain, name string, fn tool.Func[P], opts ...tool.Option) (*tool.Typed[P], error) {
	s, err := tau2orig.Original(domain, name)
	if err != nil {
		return nil, err
	}
	base := append(Lax(nil), s.Options()...)
	return tool.New(name, s.Description, fn, append(base, opts...)...)
}
