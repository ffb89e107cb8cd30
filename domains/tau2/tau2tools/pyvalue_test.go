package tau2tools_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/domains/tau2/tau2tools"
	"github.com/voiceeval/schematools/internal/pyvalue"
)

func TestPyReprTypeTruthy(t *testing.T) {
	assert.Equal(t, `'abc'`, pyvalue.Repr("abc"))
	assert.Equal(t, `"it's"`, pyvalue.Repr("it's"))
	assert.Equal(t, `'say "hi" it\'s'`, pyvalue.Repr(`say "hi" it's`))
	assert.Equal(t, `'a\\b\n\t\r\x00\x7f\xa0é€'`, pyvalue.Repr("a\\b\n\t\r\x00\x7f\u00a0é€"))
	// A byte no Python str holds reads as U+FFFD, which repr prints as it
	// is (it is printable); the private copy escaped it as \ufffd.
	assert.Equal(t, "'\ufffd'", pyvalue.Repr("\xff"))
	assert.Equal(t, `'a\ud800b'`, pyvalue.Repr("a\xed\xa0\x80b"), "a lone surrogate, as WTF-8")

	types := map[string]any{"NoneType": nil, "dict": map[string]any{}, "list": []any{}, "str": "", "bool": true,
		"int": json.Number("1"), "float": json.Number("1.0")}
	for want, v := range types {
		assert.Equal(t, want, pyvalue.TypeName(v))
	}
	assert.Equal(t, "float", pyvalue.TypeName(1.5))
	assert.Equal(t, "int", pyvalue.TypeName(3))

	for _, v := range []any{nil, false, "", []any{}, map[string]any{}, json.Number("0"), json.Number("0.0"), 0.0, 0,
		json.Number("-0"), json.Number("1e-400")} {
		assert.False(t, pyvalue.Truthy(v), "%#v", v)
	}
	for _, v := range []any{true, "x", []any{nil}, map[string]any{"a": nil}, json.Number("-1"), 0.5, json.Number("99999999999999999999"),
		json.Number("0.1"), json.Number("1e400"), math.NaN(), uint(3)} {
		assert.True(t, pyvalue.Truthy(v), "%#v", v)
	}
}

func TestDBHelpers(t *testing.T) {
	db := map[string]any{
		"users": map[string]any{"raj_1": map[string]any{"name": "Raj"}, "none_user": nil},
		"null":  nil,
		"list":  []any{1},
		"empty": []any{},
	}
	users, err := tau2tools.GetDict(db, "users")
	require.NoError(t, err)
	assert.Len(t, users, 2)
	missing, err := tau2tools.GetDict(db, "nope")
	require.NoError(t, err)
	assert.Empty(t, missing)
	_, err = tau2tools.GetDict(db, "null")
	assert.EqualError(t, err, "'NoneType' object has no attribute 'get'")
	orEmpty, err := tau2tools.GetDictOr(db, "null")
	require.NoError(t, err)
	assert.Empty(t, orEmpty)
	_, err = tau2tools.GetDictOr(db, "list")
	assert.EqualError(t, err, "'list' object has no attribute 'get'")
	l, err := tau2tools.GetListOr(db, "empty")
	require.NoError(t, err)
	assert.Empty(t, l)
	_, err = tau2tools.GetListOr(db, "users")
	assert.Error(t, err)
	l, err = tau2tools.SetDefaultList(db, "list")
	require.NoError(t, err)
	assert.Len(t, l, 1)
	l, err = tau2tools.SetDefaultList(db, "nope")
	require.NoError(t, err)
	assert.Nil(t, l)
	_, err = tau2tools.SetDefaultList(db, "null")
	assert.EqualError(t, err, "'NoneType' object has no attribute 'append'")

	v, err := tau2tools.GetFolded(users, "RAJ_1", pyvalue.Lower, "lower")
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"name": "Raj"}, v)
	v, err = tau2tools.GetFolded(users, "none_user", pyvalue.Lower, "lower")
	require.NoError(t, err)
	assert.Nil(t, v)
	for _, key := range []any{nil, false, json.Number("0"), ""} {
		v, err = tau2tools.GetFolded(users, key, pyvalue.Lower, "lower")
		require.NoError(t, err)
		assert.Nil(t, v)
	}
	_, err = tau2tools.GetFolded(users, json.Number("5"), pyvalue.Lower, "lower")
	assert.EqualError(t, err, "'int' object has no attribute 'lower'")
	_, err = tau2tools.GetFolded(users, []any{}, pyvalue.Lower, "lower")
	assert.EqualError(t, err, "unhashable type: 'list'")
	var exc *pyvalue.Error
	require.ErrorAs(t, err, &exc)
	assert.Equal(t, "TypeError", exc.Type)
	assert.Equal(t, "TypeError: unhashable type: 'list'", exc.Error())
}

// Exception makes a kernel exception a tool error whose text is str(exc),
// what the live path delivers and a gold replay records.
func TestException(t *testing.T) {
	assert.NoError(t, tau2tools.Exception(nil))
	plain := errors.New("plain")
	assert.Equal(t, plain, tau2tools.Exception(plain))
	for _, err := range []error{
		pyvalue.Raise("KeyError", "amount"),
		fmt.Errorf("wrapped: %w", pyvalue.Raise("KeyError", "amount")),
		tau2tools.Raise("KeyError", "amount"),
	} {
		got := tau2tools.Exception(err)
		assert.EqualError(t, got, "'amount'", "%v", err)
		var exc *pyvalue.Error
		require.ErrorAs(t, got, &exc)
		assert.Equal(t, "KeyError", exc.Type)
		assert.Equal(t, "KeyError: 'amount'", exc.Error())
	}
}

func TestPyInIsStrGetKey(t *testing.T) {
	tests := []struct {
		v    any
		want bool
		err  string
	}{
		{"pending (item modified)", true, ""}, {"processed", false, ""}, {nil, false, ""}, {"", false, ""},
		{[]any{"pending"}, true, ""}, {[]any{"pend"}, false, ""}, {map[string]any{"pending": 1}, true, ""},
		{json.Number("3"), false, "argument of type 'int' is not iterable"}, {true, false, "argument of type 'bool' is not iterable"},
	}
	for _, tt := range tests {
		got, err := tau2tools.PyIn("pending", tt.v)
		if tt.err != "" {
			assert.EqualError(t, err, tt.err, "%#v", tt.v)
			continue
		}
		require.NoError(t, err)
		assert.Equal(t, tt.want, got, "%#v", tt.v)
	}
	in, err := tau2tools.PyIn("", nil) // "" in ""
	require.NoError(t, err)
	assert.True(t, in)

	assert.True(t, pyvalue.Equal("a", "a"))
	assert.False(t, pyvalue.Equal(json.Number("1"), "1"))

	m := map[string]any{"a": 1, "1": 2}
	for _, k := range []any{"a", json.Number("1"), nil, true} {
		v, err := tau2tools.GetKey(m, k)
		require.NoError(t, err)
		if k == "a" {
			assert.Equal(t, 1, v)
		} else {
			assert.Nil(t, v, "%#v", k)
		}
	}
	_, err = tau2tools.GetKey(m, []any{})
	assert.EqualError(t, err, "unhashable type: 'list'")
	assert.Equal(t, []string{"1", "a"}, tau2tools.SortedKeys(m))
}
