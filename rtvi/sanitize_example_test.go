package rtvi_test

import (
	"fmt"
	"math"

	"github.com/voiceeval/schematools/rtvi"
)

func ExampleSanitizeContext() {
	messages := []any{
		rtvi.Object{{Key: "role", Value: "user"}, {Key: "content", Value: []any{
			rtvi.Object{{Key: "type", Value: "text"}, {Key: "text", Value: "What does this say?"}},
			rtvi.Object{{Key: "type", Value: "input_audio"}, {Key: "input_audio", Value: rtvi.Object{
				{Key: "data", Value: "UklGRiQAAABXQVZFZm10IBAAAAABAAEA"},
				{Key: "format", Value: "wav"},
			}}},
		}}},
		rtvi.Object{{Key: "role", Value: "assistant"}, {Key: "content", Value: "It says hello."}, {Key: "image", Value: []byte{0x89, 'P', 'N', 'G'}}},
	}
	context, err := rtvi.PythonRepr(rtvi.SanitizeContext(messages))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(context)
	// Output:
	// [{'role': 'user', 'content': [{'type': 'text', 'text': 'What does this say?'}, {'type': 'input_audio', 'input_audio': {'data': '<audio>', 'format': 'wav'}}]}, {'role': 'assistant', 'content': 'It says hello.', 'image': '<image>'}]
}

func ExamplePythonRepr() {
	for _, v := range []any{
		rtvi.Object{{Key: "role", Value: "user"}, {Key: "content", Value: "it's"}},
		map[string]any{"b": 1.0, "a": []any{true, nil, math.Inf(1)}},
		"tab\there, no-break\u00a0space, café",
		[]byte("\x00raw"),
	} {
		s, err := rtvi.PythonRepr(v)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(s)
	}
	// Output:
	// {'role': 'user', 'content': "it's"}
	// {'a': [True, None, inf], 'b': 1.0}
	// 'tab\there, no-break\xa0space, café'
	// b'\x00raw'
}
