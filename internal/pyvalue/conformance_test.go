package pyvalue

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"
	"testing"

	"github.com/voiceeval/schematools/internal/conformance"
	"github.com/voiceeval/schematools/internal/pyjson"
)

// vector is one line of pyvalue_vectors.jsonl: an operation, its operands
// as JSON texts, and what CPython 3.11 gave — the JSON text of the result,
// or the exception's type and message.
type vector struct {
	Op  string   `json:"op"`
	In  []string `json:"in"`
	Out *string  `json:"out"`
	Err *struct {
		Type string `json:"type"`
		Msg  string `json:"msg"`
	} `json:"err"`
}

// runOp applies op to the operands and returns the result as the JSON
// text json.dumps gives of it.
func runOp(op string, in []any) (string, error) {
	var res any
	var err error
	arg := func(i int) any { return in[i] }
	str := func() (string, error) {
		s, ok := in[0].(string)
		if !ok {
			return "", fmt.Errorf("%s of a %T", op, in[0])
		}
		return s, nil
	}
	num := func(i int) Num {
		n, ok := NumOf(in[i])
		if !ok {
			panic(fmt.Sprintf("%s: operand %d is %T, not a number", op, i, in[i]))
		}
		return n
	}
	switch op {
	case "float":
		res, err = Float(arg(0))
	case "int":
		var n Num
		n, err = Int(arg(0))
		res = n
	case "str":
		res = Str(arg(0))
	case "repr":
		res = Repr(arg(0))
	case "type":
		res = TypeName(arg(0))
	case "truthy":
		res = Truthy(arg(0))
	case "eq":
		res = Equal(arg(0), arg(1))
	case "lt":
		res, err = Less(arg(0), arg(1))
	case "len":
		res, err = Len(arg(0))
	case "in":
		res, err = Contains(arg(0), arg(1))
	case "lower", "upper", "strip", "casefold", "title", "split":
		var s string
		if s, err = str(); err != nil {
			return "", err
		}
		res = map[string]func(string) any{
			"lower":    func(s string) any { return Lower(s) },
			"upper":    func(s string) any { return Upper(s) },
			"strip":    func(s string) any { return Strip(s) },
			"casefold": func(s string) any { return Casefold(s) },
			"title":    func(s string) any { return Title(s) },
			"split": func(s string) any {
				parts := Split(s)
				l := make([]any, len(parts))
				for i, p := range parts {
					l[i] = p
				}
				return l
			},
		}[op](s)
	case "round2":
		res, err = Round2(arg(0))
	case "fmt2":
		res, err = Format2(arg(0))
	case "add":
		res, err = num(0).Add(num(1))
	case "sub":
		res, err = num(0).Sub(num(1))
	case "mul":
		res, err = num(0).Mul(num(1))
	case "truediv":
		res, err = num(0).TrueDiv(num(1))
	case "floordiv":
		res, err = num(0).FloorDiv(num(1))
	case "mod":
		res, err = num(0).Mod(num(1))
	case "json_dumps", "json_dumps_sorted":
		var b []byte
		b, err = AppendJSON(nil, arg(0), pyjson.Default, op == "json_dumps_sorted")
		res = string(b)
	default:
		return "", fmt.Errorf("unknown op %q", op)
	}
	if err != nil {
		return "", err
	}
	b, err := AppendJSON(nil, res, pyjson.Default, false)
	return string(b), err
}

func TestConformance(t *testing.T) {
	path := conformance.Path(t, "pyvalue_vectors.jsonl")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type tally struct{ pass, total int }
	counts := map[string]*tally{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	line := 0
	for sc.Scan() {
		line++
		var v vector
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatalf("%s:%d: %v", path, line, err)
		}
		if (v.Out == nil) == (v.Err == nil) {
			t.Fatalf("%s:%d: want exactly one of out and err", path, line)
		}
		c := counts[v.Op]
		if c == nil {
			c = &tally{}
			counts[v.Op] = c
		}
		c.total++
		in := make([]any, len(v.In))
		for i, text := range v.In {
			if in[i], err = Loads([]byte(text)); err != nil {
				t.Fatalf("%s:%d: operand %s: %v", path, line, text, err)
			}
		}
		got, err := runOp(v.Op, in)
		switch {
		case v.Err != nil:
			var pe *Error
			if !errors.As(err, &pe) {
				t.Errorf("%s:%d: %s%q = %s, %v; want %s: %s", path, line, v.Op, v.In, got, err, v.Err.Type, v.Err.Msg)
				continue
			}
			if pe.Type != v.Err.Type || pe.Msg != v.Err.Msg {
				t.Errorf("%s:%d: %s%q raised %s: %q; want %s: %q", path, line, v.Op, v.In, pe.Type, pe.Msg, v.Err.Type, v.Err.Msg)
				continue
			}
		case err != nil:
			t.Errorf("%s:%d: %s%q: %v; want %s", path, line, v.Op, v.In, err, *v.Out)
			continue
		case got != *v.Out:
			t.Errorf("%s:%d: %s%q = %s; want %s", path, line, v.Op, v.In, got, *v.Out)
			continue
		}
		c.pass++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if line == 0 {
		t.Fatalf("%s: no vectors", path)
	}
	ops := make([]string, 0, len(counts))
	for op := range counts {
		ops = append(ops, op)
	}
	sort.Strings(ops)
	for _, op := range ops {
		t.Logf("%-18s %4d/%d", op, counts[op].pass, counts[op].total)
	}
}
