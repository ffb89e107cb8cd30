package rtvi_test

import (
	"context"
	"fmt"

	"github.com/voiceeval/schematools/rtvi"
)

// message is a chat message as an LLM client's structs hold it; its
// fields keep their order in the transcript.
type message struct {
	Role    string `json:"role"`
	Content any    `json:"content"`
	Image   string `json:"image,omitempty"`
}

type part struct {
	Type       string      `json:"type"`
	Text       string      `json:"text,omitempty"`
	InputAudio *inputAudio `json:"input_audio,omitempty"`
}

type inputAudio struct {
	Data   string `json:"data"`
	Format string `json:"format"`
}

type transcript []any

func (t transcript) Reset(context.Context, []rtvi.ChatMessage) error { return nil }
func (t transcript) Messages(context.Context) ([]any, error)         { return t, nil }

// get_context_history answers the bot's conversation as the Python literal
// the harness eval()s, media blobs replaced by tags so that it fits in one
// frame.
func ExampleDispatcher_Handle_contextHistory() {
	d := rtvi.NewDispatcher(rtvi.Config{Conversation: transcript{
		message{Role: "user", Content: []part{
			{Type: "text", Text: "What does this say?"},
			{Type: "input_audio", InputAudio: &inputAudio{Data: "UklGRiQAAABXQVZFZm10IBAAAAABAAEA", Format: "wav"}},
		}},
		message{Role: "assistant", Content: "It says hello.", Image: "data:image/png;base64,iVBORw0KGgo="},
	}})
	reply, err := d.Handle(context.Background(), []byte(`{"label": "rtvi-ai", "type": "client-message", "id": "h1", "data": {"t": "get_context_history"}}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(reply))
	// Output:
	// {"label": "rtvi-ai", "type": "server-response", "id": "h1", "data": {"t": "get_context_history", "d": {"context": "[{'role': 'user', 'content': [{'type': 'text', 'text': 'What does this say?'}, {'type': 'input_audio', 'input_audio': {'data': '<audio>', 'format': 'wav'}}]}, {'role': 'assistant', 'content': 'It says hello.', 'image': '<image>'}]"}}}
}
