package nemotest

import (
	"context"
	"encoding/json"
	"testing"
	"testing/fstest"

	"github.com/voiceeval/schematools/domains/nemo/basictools"
	"github.com/voiceeval/schematools/domains/nemo/customerservice"
	"github.com/voiceeval/schematools/domains/nemo/waitlist"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// call runs tl on the live path and returns the delivered result as JSON.
func call(t *testing.T, tl tool.Tool, args string) string {
	t.Helper()
	a, err := tool.DecodeArgs([]byte(args))
	if err != nil {
		t.Fatal(err)
	}
	var got any
	if err := tool.Call(context.Background(), tl, a, func(r any) error { got = r; return nil }, &tool.CallOptions{Logger: quiet}); err != nil {
		t.Fatal(err)
	}
	s, err := Canon(got)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestHostileArguments(t *testing.T) {
	st := state.New()
	lookup, err := customerservice.NewLookupAccount(st, customerservice.LookupAccountOptions{Accounts: json.RawMessage(`"{\"A\": {\"balance\": 5, \"orders\": [\"O\"]}}"`)})
	if err != nil {
		t.Fatal(err)
	}
	refund, _ := customerservice.NewProcessRefund(st, customerservice.Options{})
	status, _ := customerservice.NewCheckOrderStatus(st, customerservice.Options{})
	join, _ := waitlist.NewJoinWaitList(st, waitlist.JoinOptions{InitialWaitlist: `{"x": 1}`}, nil)
	order, _ := basictools.NewPlaceOrder(st, basictools.PlaceOrderOptions{AutoValidate: "False"}, nil)
	read, _ := basictools.NewReadFile(fstest.MapFS{"d/a.txt": {Data: []byte("x\r\ny\rz")}, "bad.txt": {Data: []byte("ab\xe2\x28")}})
	for _, c := range []struct {
		name string
		tl   tool.Tool
		args string
		want string
	}{
		{"unhashable id", lookup, `{"account_id": ["A"]}`, `{"error": "unhashable type: 'list'"}`},
		{"self", lookup, `{"self": 1}`, `{"error": "LookupAccountTool._execute() got multiple values for argument 'self'"}`},
		{"bad amount", refund, `{"account_id": "A", "amount": "abc"}`, `{"error": "could not convert string to float: 'abc'"}`},
		{"balance not str", refund, `{"account_id": "A", "amount": 1}`, `{"error": "'int' object has no attribute 'strip'"}`},
		{"orders a list", status, `{"account_id": "A", "order_id": "O"}`, `{"error": "list indices must be integers or slices, not str"}`},
		{"waitlist a dict", join, `{"name": "a", "phone": "b", "party_size": 1}`, `{"error": "'dict' object has no attribute 'append'"}`},
		{"items an int", order, `{"items": 3, "customer_name": "a", "total_price": 1}`, `{"error": "'int' object is not iterable"}`},
		{"item a str", order, `{"items": ["x"], "customer_name": "a", "total_price": 1}`, `{"error": "Each item in the ` + "`items`" + ` parameter must have a ` + "`name`" + ` key, but the item is: x."}`},
		{"nan total", order, `{"items": [], "customer_name": "a", "total_price": NaN}`, `{"error": "The total price is incorrect. The calculated total price is 0.0 but the expected total price is nan."}`},
		{"escape", read, `{"file_path": "../etc/passwd"}`, `{"error": "[Errno 13] Permission denied: '../etc/passwd'"}`},
		{"absolute", read, `{"file_path": "/etc/passwd"}`, `{"error": "[Errno 13] Permission denied: '/etc/passwd'"}`},
		{"not a dir", read, `{"file_path": "d/a.txt/b"}`, `{"error": "[Errno 20] Not a directory: 'd/a.txt/b'"}`},
		{"newlines", read, `{"file_path": "./d//a.txt"}`, `{"file_path": "./d//a.txt", "content": "x\ny\nz"}`},
		{"utf-8", read, `{"file_path": "bad.txt"}`, `{"error": "'utf-8' codec can't decode byte 0xe2 in position 2: invalid continuation byte"}`},
		{"empty path", read, `{"file_path": ""}`, `{"error": "[Errno 21] Is a directory: '.'"}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := call(t, c.tl, c.args); got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}

func TestConfiguredTexts(t *testing.T) {
	for _, c := range []struct {
		plans, want string
	}{
		{`{"Gold": "$1", "Basic": "$0"}`, "The new plan name. Available plans: Gold, Basic."},
		{``, "The new plan name."},
	} {
		tl, err := customerservice.NewChangePlan(nil, customerservice.ChangePlanOptions{Plans: json.RawMessage(jsonQuote(c.plans))})
		if err != nil {
			t.Fatal(err)
		}
		got := tl.Properties()["new_plan"].(map[string]any)["description"]
		if got != c.want {
			t.Errorf("plans %s: %q, want %q", c.plans, got, c.want)
		}
	}
	tl, err := customerservice.NewResolveTicket(nil, customerservice.ResolveTicketOptions{ResolutionTypes: []string{"a", "b"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := tl.Properties()["resolution_type"].(map[string]any)
	if p["description"] != "Type of resolution applied. Must be exactly one of: a, b." || len(p["enum"].([]any)) != 2 {
		t.Errorf("resolution_type %v", p)
	}
}

func jsonQuote(s string) string {
	if s == "" {
		return ""
	}
	b, _ := json.Marshal(s)
	return string(b)
}

// TestConcurrentCalls runs calls on one state from many goroutines (for
// go test -race): every join is kept.
func TestConcurrentCalls(t *testing.T) {
	st := state.New()
	join, _ := waitlist.NewJoinWaitList(st, waitlist.JoinOptions{}, nil)
	get, _ := waitlist.NewGetWaitlist(st, waitlist.Options{})
	done := make(chan bool)
	for i := 0; i < 16; i++ {
		go func() {
			_, _ = join.Execute(context.Background(), map[string]any{"name": "a", "phone": "b", "party_size": json.Number("2")})
			_, _ = get.Execute(context.Background(), nil)
			done <- true
		}()
	}
	for i := 0; i < 16; i++ {
		<-done
	}
	if w, _ := st.Value(waitlist.KeyWaitlist); len(w.([]any)) != 16 {
		t.Errorf("waitlist %v", w)
	}
}
