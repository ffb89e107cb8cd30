package rtvi

import (
	"encoding/json"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sanMap and sanList shorten the test trees.
type (
	sanMap  = map[string]any
	sanList = []any
)

func TestSanitizeContextReplacesBytesInMessageParts(t *testing.T) {
	in := sanList{
		sanMap{"role": "user", "content": sanList{
			sanMap{"type": "text", "text": "hello"},
			sanMap{"type": "audio", "audio": []byte{0x52, 0x49, 0x46, 0x46, 0x00, 0xff}},
		}},
		sanMap{"role": "assistant", "content": "hi there", "image": []byte("\x89PNG")},
	}
	out, ok := sanitizeContext(in).(sanList)
	require.True(t, ok)
	require.Len(t, out, 2)

	user := out[0].(sanMap)
	parts := user["content"].(sanList)
	assert.Equal(t, sanMap{"type": "text", "text": "hello"}, parts[0])
	assert.Equal(t, sanMap{"type": "audio", "audio": "<audio>"}, parts[1])

	assistant := out[1].(sanMap)
	assert.Equal(t, "hi there", assistant["content"])
	assert.Equal(t, "<image>", assistant["image"])
	assert.Equal(t, "assistant", assistant["role"])
}

func TestSanitizeContextBytesWithoutMediaKeyBecomeBinary(t *testing.T) {
	in := sanMap{"data": []byte("raw"), "n": 5}
	assert.Equal(t, sanMap{"data": "<binary>", "n": 5}, sanitizeContext(in))
}

func TestSanitizeContextInputAudioDataBecomesAudioTag(t *testing.T) {
	in := sanMap{
		"type":        "input_audio",
		"input_audio": sanMap{"data": strings.Repeat("QUJD", 100000), "format": "wav"},
	}
	want := sanMap{
		"type":        "input_audio",
		"input_audio": sanMap{"data": "<audio>", "format": "wav"},
	}
	assert.Equal(t, want, sanitizeContext(in))
}

func TestSanitizeContextImageURL(t *testing.T) {
	tests := []struct {
		name string
		in   any
		want any
	}{
		{
			name: "data URI becomes the image tag",
			in:   sanMap{"image_url": sanMap{"url": "data:image/png;base64," + strings.Repeat("AAAA", 9999)}},
			want: sanMap{"image_url": sanMap{"url": "<image>"}},
		},
		{
			name: "https URL is kept",
			in:   sanMap{"image_url": sanMap{"url": "https://example.com/cat.jpg", "detail": "auto"}},
			want: sanMap{"image_url": sanMap{"url": "https://example.com/cat.jpg", "detail": "auto"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, sanitizeContext(tt.in))
		})
	}
}

func TestSanitizeContextKeepsDataOutsideMediaKeys(t *testing.T) {
	in := sanMap{"role": "tool", "data": sanMap{"rows": sanList{1, 2, 3}}}
	want := sanMap{"role": "tool", "data": sanMap{"rows": sanList{1, 2, 3}}}
	assert.Equal(t, want, sanitizeContext(in))
}

// openAIContext is a conversation using every kind of OpenAI content part.
func openAIContext(blob string) sanList {
	return sanList{
		sanMap{"role": "system", "content": "be brief"},
		sanMap{"role": "user", "content": sanList{
			sanMap{"type": "text", "text": "what is this?"},
			sanMap{"type": "image_url", "image_url": sanMap{"url": "data:image/jpeg;base64," + blob, "detail": "low"}},
			sanMap{"type": "input_audio", "input_audio": sanMap{"data": blob, "format": "mp3"}},
			sanMap{"type": "file", "file": sanMap{"filename": "r.pdf", "file_id": "file_9", "file_data": strings.Repeat("C", 50000)}},
		}},
		sanMap{"role": "assistant", "content": sanList{
			sanMap{"type": "text", "text": "ok"},
			sanMap{"type": "refusal", "refusal": "I can't help"},
		}},
		sanMap{"role": "assistant", "content": nil, "audio": sanMap{
			"id": "audio_123", "data": strings.Repeat("D", 50000), "transcript": "hello",
		}},
	}
}

func TestSanitizeContextOpenAIContentParts(t *testing.T) {
	want := sanList{
		sanMap{"role": "system", "content": "be brief"},
		sanMap{"role": "user", "content": sanList{
			sanMap{"type": "text", "text": "what is this?"},
			sanMap{"type": "image_url", "image_url": sanMap{"url": "<image>", "detail": "low"}},
			sanMap{"type": "input_audio", "input_audio": sanMap{"data": "<audio>", "format": "mp3"}},
			sanMap{"type": "file", "file": sanMap{"filename": "r.pdf", "file_id": "file_9", "file_data": "<file>"}},
		}},
		sanMap{"role": "assistant", "content": sanList{
			sanMap{"type": "text", "text": "ok"},
			sanMap{"type": "refusal", "refusal": "I can't help"},
		}},
		sanMap{"role": "assistant", "content": nil, "audio": sanMap{
			"id": "audio_123", "data": "<audio>", "transcript": "hello",
		}},
	}
	assert.Equal(t, want, sanitizeContext(openAIContext(strings.Repeat("QUJD", 1000))))
}

func TestSanitizeContextKeepsPlainTextMessages(t *testing.T) {
	in := sanList{
		sanMap{"role": "system", "content": "You are helpful."},
		sanMap{"role": "user", "content": "Book a table for two, data: none."},
		sanMap{"role": "assistant", "content": "Done, 7pm."},
	}
	want := sanList{
		sanMap{"role": "system", "content": "You are helpful."},
		sanMap{"role": "user", "content": "Book a table for two, data: none."},
		sanMap{"role": "assistant", "content": "Done, 7pm."},
	}
	assert.Equal(t, want, sanitizeContext(in))
}

func TestSanitizeContextDoesNotMutateInput(t *testing.T) {
	build := func() (sanList, []byte) {
		audio := []byte{1, 2, 3, 0xfe}
		return sanList{
			sanMap{"role": "user", "content": sanList{
				sanMap{"type": "audio", "audio": audio},
				sanMap{"type": "image_url", "image_url": sanMap{"url": "data:image/png;base64,AAAA"}},
			}},
			orderedObject{{"role", "assistant"}, {"audio", orderedObject{{"id", "a1"}, {"data", "QUJD"}}}},
			[]map[string]any{{"file": sanMap{"file_data": "Zm9v"}}},
		}, audio
	}
	in, audio := build()
	want, _ := build()

	out := sanitizeContext(in)

	assert.Equal(t, want, in, "input changed")
	gotAudio := in[0].(sanMap)["content"].(sanList)[0].(sanMap)["audio"].([]byte)
	assert.Same(t, &audio[0], &gotAudio[0], "input byte slice replaced")
	assert.Equal(t, []byte{1, 2, 3, 0xfe}, audio)
	assert.NotEqual(t, in, out)

	// The result shares no container with the input: changing it leaves
	// the input alone.
	outList := out.(sanList)
	outList[0].(sanMap)["role"] = "changed"
	outList[0].(sanMap)["content"].(sanList)[1] = "changed"
	outList[1].(orderedObject)[0].Value = "changed"
	outList[2].([]map[string]any)[0]["file"] = "changed"
	assert.Equal(t, want, in, "input shares containers with the result")
}

func TestSanitizeContextOutputMarshalsToJSON(t *testing.T) {
	in := sanList{
		sanMap{"role": "user", "content": sanList{sanMap{"type": "audio", "audio": []byte("RIFF")}}},
		orderedObject{{"role", "assistant"}, {"content", "ok"}},
	}
	b, err := json.Marshal(sanitizeContext(in))
	require.NoError(t, err)
	assert.Contains(t, string(b), `"\u003caudio\u003e"`) // encoding/json escapes < and >
	var back any
	require.NoError(t, json.Unmarshal(b, &back))
	assert.Contains(t, back.([]any)[0].(sanMap)["content"].([]any)[0], "audio")
	assert.Equal(t, "<audio>", back.([]any)[0].(sanMap)["content"].([]any)[0].(sanMap)["audio"])
}

// sanitizeProbes are single rules, each on the smallest input showing it.
var sanitizeProbes = []struct {
	name string
	in   any
	want any
}{
	{"data URI anywhere without media key is binary", sanMap{"content": "data: hello"}, sanMap{"content": "<binary>"}},
	{"profile contains file so data under it is file", sanMap{"profile": sanMap{"data": "x", "name": "n"}}, sanMap{"profile": sanMap{"data": "<file>", "name": "n"}}},
	{"b64_json without media key is binary", sanMap{"b64_json": "AAA"}, sanMap{"b64_json": "<binary>"}},
	{"b64_json under image is image", sanMap{"image": sanMap{"b64_json": "AAA"}}, sanMap{"image": sanMap{"b64_json": "<image>"}}},
	{"file_data is file by its own key", sanMap{"file_data": "AAA"}, sanMap{"file_data": "<file>"}},
	{"data key matched in any case", sanMap{"input_audio": sanMap{"Data": "AAA"}}, sanMap{"input_audio": sanMap{"Data": "<audio>"}}},
	{"media key carries through lists", sanMap{"input_audio": sanList{sanMap{"data": "AAA"}}}, sanMap{"input_audio": sanList{sanMap{"data": "<audio>"}}}},
	{"media key carries through plain keys", sanMap{"audio": sanMap{"meta": sanMap{"data": "AAA"}}}, sanMap{"audio": sanMap{"meta": sanMap{"data": "<audio>"}}}},
	{"nearest media key wins", sanMap{"audio": sanMap{"inner": sanMap{"image": sanMap{"data": "x"}}}}, sanMap{"audio": sanMap{"inner": sanMap{"image": sanMap{"data": "<image>"}}}}},
	{"data URI directly under media key", sanMap{"audio": "data:audio/wav;base64,UklGRg=="}, sanMap{"audio": "<audio>"}},
	{"data under non-media key recurses to data URI", sanMap{"tool": sanMap{"data": "data:xyz"}}, sanMap{"tool": sanMap{"data": "<binary>"}}},
	{"upper-case DATA prefix is not a data URI", sanMap{"image_url": sanMap{"url": "DATA:image/png;base64,AAAA"}}, sanMap{"image_url": sanMap{"url": "DATA:image/png;base64,AAAA"}}},
	{"scalars under media keys kept", sanMap{"audio": nil, "image": 5, "file": true}, sanMap{"audio": nil, "image": 5, "file": true}},
	{"data under media key replaced whole", sanMap{"audio": sanMap{"data": sanMap{"nested": 1}}}, sanMap{"audio": sanMap{"data": "<audio>"}}},
	{"plain string under media key kept", sanMap{"x": sanMap{"audio_data": "abc"}}, sanMap{"x": sanMap{"audio_data": "abc"}}},
	{"audio checked before image", sanMap{"image_audio": []byte{1}}, sanMap{"image_audio": "<audio>"}},
	{"image checked before file", sanMap{"file_image": []byte{1}}, sanMap{"file_image": "<image>"}},
	{"upper-case media key", sanMap{"INPUT_AUDIO": sanMap{"DATA": "x"}}, sanMap{"INPUT_AUDIO": sanMap{"DATA": "<audio>"}}},
	{"dotted capital I is not i as in Python", sanMap{"F\u0130LE": sanMap{"data": "x"}}, sanMap{"F\u0130LE": sanMap{"data": "x"}}},
	{"bytes at top level", []byte("x"), "<binary>"},
	{"data URI at top level", "data:,x", "<binary>"},
	{"numbers kept", sanList{1.5, json.Number("7"), int64(-3), uint8(2)}, sanList{1.5, json.Number("7"), int64(-3), uint8(2)}},
	{"nil containers stay nil", sanMap{"a": sanList(nil), "b": sanMap(nil)}, sanMap{"a": sanList(nil), "b": sanMap(nil)}},
	{"list of maps stays a list of maps", []map[string]any{{"image": []byte{1}}}, []map[string]any{{"image": "<image>"}}},
}

func TestSanitizeContextProbes(t *testing.T) {
	for _, tt := range sanitizeProbes {
		t.Run(tt.name, func(t *testing.T) {
			got := sanitizeContext(tt.in)
			assert.Equal(t, tt.want, got)
			assert.Equal(t, got, sanitizeContext(got), "not idempotent")
		})
	}
}

// sanToObject turns every map[string]any in v into an Object with its keys
// sorted, so a map test case can be rerun on Objects.
func sanToObject(v any) any {
	switch x := v.(type) {
	case sanMap:
		if x == nil {
			return orderedObject(nil)
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		o := orderedObject{}
		for _, k := range keys {
			o = append(o, objMember{k, sanToObject(x[k])})
		}
		return o
	case sanList:
		if x == nil {
			return x
		}
		l := make(sanList, len(x))
		for i, e := range x {
			l[i] = sanToObject(e)
		}
		return l
	}
	return v
}

func TestSanitizeContextObjectProbes(t *testing.T) {
	for _, tt := range sanitizeProbes {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, sanToObject(tt.want), sanitizeContext(sanToObject(tt.in)))
		})
	}
}

func TestSanitizeContextObjectOpenAIContentParts(t *testing.T) {
	in := sanToObject(openAIContext("QUJD"))
	got := sanitizeContext(in)
	want := sanToObject(sanitizeContext(openAIContext("QUJD")))
	assert.Equal(t, want, got)
}

func TestSanitizeContextObjectKeepsOrder(t *testing.T) {
	in := sanList{
		orderedObject{{"role", "user"}, {"content", sanList{
			orderedObject{{"type", "input_audio"}, {"input_audio", orderedObject{{"format", "wav"}, {"data", "QUJD"}}}},
			orderedObject{{"type", "text"}, {"text", "hi"}},
		}}},
		orderedObject{{"role", "assistant"}, {"content", "hello"}, {"image", []byte{1}}, {"audio", nil}},
	}
	want := sanList{
		orderedObject{{"role", "user"}, {"content", sanList{
			orderedObject{{"type", "input_audio"}, {"input_audio", orderedObject{{"format", "wav"}, {"data", "<audio>"}}}},
			orderedObject{{"type", "text"}, {"text", "hi"}},
		}}},
		orderedObject{{"role", "assistant"}, {"content", "hello"}, {"image", "<image>"}, {"audio", nil}},
	}
	assert.Equal(t, want, sanitizeContext(in))
}

func TestSanitizeContextObjectDuplicateKeysEachSanitised(t *testing.T) {
	in := orderedObject{{"audio", orderedObject{{"data", "x"}, {"data", []byte{1}}}}}
	want := orderedObject{{"audio", orderedObject{{"data", "<audio>"}, {"data", "<audio>"}}}}
	assert.Equal(t, want, sanitizeContext(in))
}

type (
	sanTestAudio struct {
		Data   string `json:"data"`
		Format string `json:"format"`
	}
	sanTestImage struct {
		URL    string `json:"url"`
		Detail string `json:"detail,omitempty"`
	}
	sanTestPart struct {
		Type       string        `json:"type"`
		Text       string        `json:"text,omitempty"`
		InputAudio *sanTestAudio `json:"input_audio,omitempty"`
		ImageURL   *sanTestImage `json:"image_url,omitempty"`
	}
	sanTestMessage struct {
		Role    string        `json:"role"`
		Content []sanTestPart `json:"content"`
	}
)

func TestSanitizeContextStructsGoThroughJSON(t *testing.T) {
	in := []sanTestMessage{{Role: "user", Content: []sanTestPart{
		{Type: "text", Text: "hi"},
		{Type: "input_audio", InputAudio: &sanTestAudio{Data: "QUJD", Format: "wav"}},
		{Type: "image_url", ImageURL: &sanTestImage{URL: "data:image/png;base64,AAAA", Detail: "low"}},
		{Type: "image_url", ImageURL: &sanTestImage{URL: "https://example.com/a.png"}},
	}}}
	want := sanList{orderedObject{{"role", "user"}, {"content", sanList{
		orderedObject{{"type", "text"}, {"text", "hi"}},
		orderedObject{{"type", "input_audio"}, {"input_audio", orderedObject{{"data", "<audio>"}, {"format", "wav"}}}},
		orderedObject{{"type", "image_url"}, {"image_url", orderedObject{{"url", "<image>"}, {"detail", "low"}}}},
		orderedObject{{"type", "image_url"}, {"image_url", orderedObject{{"url", "https://example.com/a.png"}}}},
	}}}}
	assert.Equal(t, want, sanitizeContext(in))

	// A struct nested in tree values is converted where it is.
	nested := sanMap{"messages": sanList{in[0]}, "n": 1}
	assert.Equal(t, sanMap{"messages": want, "n": 1}, sanitizeContext(nested))
	assert.Equal(t, "QUJD", in[0].Content[1].InputAudio.Data, "input changed")
}

func TestSanitizeContextOtherGoTypes(t *testing.T) {
	type named map[string]string
	ch := make(chan int)
	tests := []struct {
		name string
		in   any
		want any
	}{
		{"raw JSON keeps its order", json.RawMessage(`{"z":1,"image":{"data":"x"},"a":"data:q"}`),
			orderedObject{{"z", json.Number("1")}, {"image", orderedObject{{"data", "<image>"}}}, {"a", "<binary>"}}},
		{"named map type sorted by encoding/json", named{"b": "data:x", "a": "y"},
			orderedObject{{"a", "y"}, {"b", "<binary>"}}},
		{"pointer to struct", &sanTestAudio{Data: "d", Format: "f"},
			orderedObject{{"data", "d"}, {"format", "f"}}},
		{"nil pointer is null", (*sanTestAudio)(nil), nil},
		{"float32 becomes a number", float32(0.1), json.Number("0.1")},
		{"big int becomes a number", big.NewInt(12), json.Number("12")},
		{"string slice becomes a list", []string{"data:x", "y"}, sanList{"<binary>", "y"}},
		{"unmarshalable value kept", complex(1, 2), complex(1, 2)},
		{"channel kept", ch, ch},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, sanitizeContext(tt.in))
		})
	}
}

type sanPanicky struct{}

func (sanPanicky) MarshalJSON() ([]byte, error) { panic("boom") }

func TestSanitizeContextDoesNotPanicOnPanickingMarshaler(t *testing.T) {
	in := sanMap{"x": sanPanicky{}}
	assert.NotPanics(t, func() {
		out := sanitizeContext(in)
		assert.Equal(t, sanMap{"x": sanPanicky{}}, out)
	})
}

func TestSanitizeContextCutsOffCyclesAndDeepNesting(t *testing.T) {
	cyclic := sanList{nil}
	cyclic[0] = cyclic
	out := sanitizeContext(cyclic)
	depth := 0
	for v := out; v != nil; depth++ {
		v = v.(sanList)[0]
	}
	assert.Equal(t, treeMaxDepth, depth)

	m := sanMap{}
	m["self"] = m
	require.NotPanics(t, func() { sanitizeContext(m) })

	var deep any = "data:x"
	for range treeMaxDepth {
		deep = orderedObject{{"k", deep}}
	}
	got := sanitizeContext(deep)
	for range treeMaxDepth {
		got = got.(orderedObject)[0].Value
	}
	assert.Equal(t, "<binary>", got, "a tree at the limit is kept whole")
}

func TestObjectGet(t *testing.T) {
	o := orderedObject{{"role", "user"}, {"content", "a"}, {"content", "b"}, {"n", nil}}
	tests := []struct {
		key    string
		want   any
		wantOK bool
	}{
		{"role", "user", true},
		{"content", "b", true}, // the last one, as in a Python dict
		{"n", nil, true},
		{"missing", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			got, ok := o.Get(tt.key)
			assert.Equal(t, tt.wantOK, ok)
			assert.Equal(t, tt.want, got)
		})
	}
	_, ok := orderedObject(nil).Get("x")
	assert.False(t, ok)
}

func TestObjectMarshalJSON(t *testing.T) {
	tests := []struct {
		name string
		in   any
		want string
	}{
		{"order kept", orderedObject{{"role", "user"}, {"content", "hi"}}, `{"role":"user","content":"hi"}`},
		{"nil is empty object", orderedObject(nil), `{}`},
		{"empty", orderedObject{}, `{}`},
		{"nested values", orderedObject{{"b", sanList{1, orderedObject{{"z", true}, {"a", nil}}}}, {"a", sanMap{"y": 1, "x": []byte("hi")}}},
			`{"b":[1,{"z":true,"a":null}],"a":{"x":"aGk=","y":1}}`},
		{"nil slice and map inside are null", orderedObject{{"l", sanList(nil)}, {"m", sanMap(nil)}}, `{"l":null,"m":null}`},
		{"html escaped as encoding/json does", orderedObject{{"<k>", "a&b"}}, `{"\u003ck\u003e":"a\u0026b"}`},
		{"duplicates written as they are", orderedObject{{"a", 1}, {"a", 2}}, `{"a":1,"a":2}`},
		{"inside other values", sanMap{"o": orderedObject{{"b", 1}, {"a", 2}}}, `{"o":{"b":1,"a":2}}`},
		{"struct values", orderedObject{{"s", sanTestAudio{Data: "d"}}}, `{"s":{"data":"d","format":""}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := json.Marshal(tt.in)
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(b))
		})
	}
}

func TestObjectMarshalJSONErrors(t *testing.T) {
	_, err := json.Marshal(orderedObject{{"c", make(chan int)}})
	require.Error(t, err)

	cyclic := sanList{nil}
	cyclic[0] = orderedObject{{"c", cyclic}}
	_, err = json.Marshal(orderedObject{{"x", cyclic}})
	require.Error(t, err)
}

func TestObjectMarshalJSONAtDepthLimit(t *testing.T) {
	var deep any = 1
	for range treeMaxDepth {
		deep = orderedObject{{"k", deep}}
	}
	b, err := json.Marshal(deep)
	require.NoError(t, err)
	assert.Equal(t, strings.Repeat(`{"k":`, treeMaxDepth)+"1"+strings.Repeat("}", treeMaxDepth), string(b))

	_, err = json.Marshal(orderedObject{{"k", deep}})
	require.Error(t, err)
}

func TestToTree(t *testing.T) {
	type inner struct {
		Z int    `json:"z"`
		A string `json:"a"`
	}
	type outer struct {
		Name  string          `json:"name"`
		Inner inner           `json:"inner"`
		Raw   json.RawMessage `json:"raw"`
		List  []inner         `json:"list"`
		Skip  string          `json:"-"`
	}
	m := sanMap{"a": 1}
	tests := []struct {
		name string
		in   any
		want any
	}{
		{"nil", nil, nil},
		{"string", "s", "s"},
		{"float64", 1.5, 1.5},
		{"int", 7, 7},
		{"uint16", uint16(7), uint16(7)},
		{"number", json.Number("1e3"), json.Number("1e3")},
		{"bytes stay bytes", []byte{1, 2}, []byte{1, 2}},
		{"map passes through", m, m},
		{"list of maps passes through", []map[string]any{m}, []map[string]any{m}},
		{"object passes through", orderedObject{{"b", 1}}, orderedObject{{"b", 1}}},
		{"struct in field order", outer{Name: "n", Inner: inner{Z: 1, A: "x"}, Raw: json.RawMessage(`{"q":[1.50,{"p":null}],"b":false}`), List: []inner{{}}},
			orderedObject{
				{"name", "n"},
				{"inner", orderedObject{{"z", json.Number("1")}, {"a", "x"}}},
				{"raw", orderedObject{{"q", sanList{json.Number("1.50"), orderedObject{{"p", nil}}}}, {"b", false}}},
				{"list", sanList{orderedObject{{"z", json.Number("0")}, {"a", ""}}}},
			}},
		{"named slice", []int{1, 2}, sanList{json.Number("1"), json.Number("2")}},
		{"empty containers", json.RawMessage(`{"a":{},"b":[]}`), orderedObject{{"a", orderedObject{}}, {"b", sanList{}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := toTree(tt.in)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestToTreeErrors(t *testing.T) {
	for _, in := range []any{make(chan int), func() {}, complex(1, 1), sanPanicky{}} {
		_, err := toTree(in)
		assert.Error(t, err, "%T", in)
	}
}

func TestTreeDecodeOrderedJSON(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    any
		wantErr bool
	}{
		{"scalars", `[1, -0.5e3, "s", true, false, null]`, sanList{json.Number("1"), json.Number("-0.5e3"), "s", true, false, nil}, false},
		{"order", `{"b":1,"a":{"d":2,"c":3}}`, orderedObject{{"b", json.Number("1")}, {"a", orderedObject{{"d", json.Number("2")}, {"c", json.Number("3")}}}}, false},
		{"duplicate keys keep first place and last value", `{"a":1,"b":2,"a":3}`, orderedObject{{"a", json.Number("3")}, {"b", json.Number("2")}}, false},
		{"string values that look like keys", `{"a":"b","c":["d",{"e":"f"}]}`, orderedObject{{"a", "b"}, {"c", sanList{"d", orderedObject{{"e", "f"}}}}}, false},
		{"top-level string", `"x"`, "x", false},
		{"whitespace around", " \n{} \t", orderedObject{}, false},
		{"empty input", ``, nil, true},
		{"trailing value", `1 2`, nil, true},
		{"trailing garbage", `{} x`, nil, true},
		{"unclosed", `[1,`, nil, true},
		{"bad comma", `[1,]`, nil, true},
		{"key not string", `{1:2}`, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := decodeOrderedJSON([]byte(tt.in))
			if tt.wantErr {
				require.Error(t, err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestTreeDecodeOrderedJSONLargeObjectDuplicates(t *testing.T) {
	var b strings.Builder
	b.WriteString("{")
	for i := range 40 {
		b.WriteString(`"k` + strconv.Itoa(i) + `":` + strconv.Itoa(i) + ",")
	}
	b.WriteString(`"k0":"last","k25":"z","new":null}`)
	got, err := decodeOrderedJSON([]byte(b.String()))
	require.NoError(t, err)
	o := got.(orderedObject)
	require.Len(t, o, 41)
	assert.Equal(t, objMember{"k0", "last"}, o[0])
	assert.Equal(t, objMember{"k1", json.Number("1")}, o[1])
	assert.Equal(t, objMember{"k25", "z"}, o[25])
	assert.Equal(t, objMember{"new", nil}, o[40])
}

func TestTreeDecodeOrderedJSONDepthLimit(t *testing.T) {
	ok := strings.Repeat("[", treeMaxDepth) + strings.Repeat("]", treeMaxDepth)
	_, err := decodeOrderedJSON([]byte(ok))
	require.NoError(t, err)

	tooDeep := strings.Repeat(`{"a":`, treeMaxDepth+1) + "1" + strings.Repeat("}", treeMaxDepth+1)
	_, err = decodeOrderedJSON([]byte(tooDeep))
	require.ErrorIs(t, err, errTreeDepth)

	huge := strings.Repeat("[", 1_000_000)
	_, err = decodeOrderedJSON([]byte(huge))
	require.ErrorIs(t, err, errTreeDepth)
}
