package tool_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/internal/clip"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// Clip keeps a text of at most clip.Max bytes and shortens a longer
// one to its head, "..." and its tail, cut at UTF-8 boundaries, as pydantic
// shortens a long input_value.
func TestClip(t *testing.T) {
	assert.Equal(t, "Order ORD-404 not found", clip.String("Order ORD-404 not found"))
	exact := strings.Repeat("a", clip.Max)
	assert.Equal(t, exact, clip.String(exact))
	long := "Order " + strings.Repeat("x", 10<<20) + " not found"
	got := clip.String(long)
	assert.LessOrEqual(t, len(got), clip.Max+3)
	assert.True(t, strings.HasPrefix(got, "Order xxx"))
	assert.True(t, strings.HasSuffix(got, "xxx not found"))
	assert.Contains(t, got, "...")
	wide := strings.Repeat("é", clip.Max) // 2 bytes each
	assert.True(t, utf8.ValidString(clip.String(wide)))
	assert.LessOrEqual(t, len(clip.String(wide)), clip.Max+3)
}

// A result that echoes a 10 MiB argument stays bounded: a domain failure
// message, an unknown key's field path, a Go error and an unknown tool's
// name are each clipped, so the whole result stays small.
func TestResultsBoundWhatTheyEcho(t *testing.T) {
	ctx := context.Background()
	big := strings.Repeat("x", 10<<20)
	type params struct {
		ID string `json:"id" jsonschema_description:"an id"`
	}
	notFound, err := tool.New("find", "finds", func(_ context.Context, _ *state.Shared, p params) (any, error) {
		return tool.Failure("not_found", "Order "+p.ID+" not found"), nil
	}, nil)
	require.NoError(t, err)
	failing, err := tool.New("fail", "fails", func(_ context.Context, _ *state.Shared, p params) (any, error) {
		return nil, errors.New("no order " + p.ID)
	}, nil)
	require.NoError(t, err)
	set, err := tool.NewSet(notFound, failing)
	require.NoError(t, err)

	cases := map[string]func(d *delivery) error{
		"failure message": func(d *delivery) error {
			return set.Call(ctx, "find", map[string]any{"id": big}, d.deliver, nil)
		},
		"unknown key": func(d *delivery) error {
			return set.Call(ctx, "find", map[string]any{"id": "1", big: 1}, d.deliver, nil)
		},
		"go error": func(d *delivery) error {
			return set.Call(ctx, "fail", map[string]any{"id": big}, d.deliver, nil)
		},
		"unknown tool": func(d *delivery) error {
			return set.Call(ctx, big, map[string]any{}, d.deliver, nil)
		},
		"malformed JSON": func(d *delivery) error {
			return set.CallJSON(ctx, "find", []byte(`{"id": "`+big), d.deliver, nil)
		},
	}
	for name, call := range cases {
		t.Run(name, func(t *testing.T) {
			d := &delivery{}
			require.NoError(t, call(d))
			require.Len(t, d.got, 1)
			assert.True(t, tool.IsError(d.got[0]))
			out := jsonOf(t, d.got[0])
			assert.Less(t, len(out), 4*clip.Max, "the result echoes the argument in full: %d bytes", len(out))
		})
	}
}

// A ValidationResult lists at most 100 issues and then says how many more
// there were, so many small unknown keys do not multiply into a result
// several times the size of the arguments.
func TestValidationResultBoundsItsIssues(t *testing.T) {
	type params struct {
		ID string `json:"id" jsonschema_description:"an id"`
	}
	tl, err := tool.New("find", "finds", func(context.Context, *state.Shared, params) (any, error) { return nil, nil }, nil)
	require.NoError(t, err)
	args := map[string]any{"id": "1"}
	for i := range 100_000 {
		args[fmt.Sprintf("k%d", i)] = 0
	}
	d := &delivery{}
	require.NoError(t, tool.Call(context.Background(), tl, args, d.deliver, nil))
	require.Len(t, d.got, 1)
	res, ok := d.got[0].(tool.ValidationResult)
	require.True(t, ok, "%T", d.got[0])
	require.Len(t, res.Details, 101)
	assert.Equal(t, "extra_forbidden", res.Details[99].Type)
	assert.Equal(t, tool.Issue{Field: "", Error: "99900 more issues not shown", Type: "too_many_issues"}, res.Details[100])
	assert.Less(t, len(jsonOf(t, res)), 20_000)

	// Up to 100 issues, all are listed.
	args = map[string]any{"id": "1"}
	for i := range 100 {
		args[fmt.Sprintf("k%03d", i)] = 0
	}
	d = &delivery{}
	require.NoError(t, tool.Call(context.Background(), tl, args, d.deliver, nil))
	assert.Len(t, d.got[0].(tool.ValidationResult).Details, 100)
}

// Clip's output is at most clip.Max bytes and valid UTF-8, for every
// size around the limit and for text of 1- to 4-byte characters.
func TestClipBound(t *testing.T) {
	for _, unit := range []string{"a", "é", "€", "😀", "a😀é"} {
		for _, n := range []int{0, 1, clip.Max - 4, clip.Max - 3, clip.Max - 1, clip.Max,
			clip.Max + 1, clip.Max + 2, clip.Max + 3, clip.Max + 4, 2 * clip.Max, 5000, 1 << 20} {
			s := strings.Repeat(unit, n/len(unit)+1)[:n]
			for !utf8.ValidString(s) { // cut mid-character: drop the partial tail
				s = s[:len(s)-1]
			}
			t.Run(fmt.Sprintf("%q/%d", unit, len(s)), func(t *testing.T) {
				got := clip.String(s)
				assert.LessOrEqual(t, len(got), clip.Max)
				assert.True(t, utf8.ValidString(got))
				if len(s) <= clip.Max {
					assert.Equal(t, s, got)
					return
				}
				head, tail, ok := strings.Cut(got, "...")
				require.True(t, ok)
				assert.True(t, strings.HasPrefix(s, head))
				assert.True(t, strings.HasSuffix(s, tail))
				assert.GreaterOrEqual(t, len(got), clip.Max-6, "the budget is used up to a character or two")
			})
		}
	}
}
