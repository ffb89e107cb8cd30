package rtvi_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/voiceeval/schematools/rtvi"
)

func ExampleMessageFrameBytes() {
	msg := []byte(`{"label": "rtvi-ai", "type": "client-ready", "id": "1"}`)
	frame := rtvi.MessageFrameBytes(msg)
	fmt.Printf("frame header % x, %d bytes in all\n", frame[:4], len(frame))

	f, err := rtvi.DecodeFrame(frame)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(f.Message.Data)

	// A dispatcher answers message frames; any other kind of frame is the
	// bot's to route.
	text, err := rtvi.Frame{Text: &rtvi.TextFrame{Text: "hi"}}.Marshal()
	if err != nil {
		fmt.Println(err)
		return
	}
	_, err = rtvi.NewDispatcher(rtvi.Config{}).HandleFrame(context.Background(), text)
	fmt.Println(err, errors.Is(err, rtvi.ErrNotMessage))
	// Output:
	// frame header 22 39 0a 37, 59 bytes in all
	// {"label": "rtvi-ai", "type": "client-ready", "id": "1"}
	// rtvi: not a message frame: the frame holds text true
}

func ExampleDecodeFrame() {
	// Frame{audio: AudioRawFrame{sample_rate: 16000, num_channels: 1, pts: 0}}
	b := []byte{0x12, 0x09, 0x20, 0x80, 0x7d, 0x28, 0x01, 0x30, 0x00, 0x1a, 0x00}
	f, err := rtvi.DecodeFrame(b)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(f.Audio.SampleRate, f.Audio.NumChannels, *f.Audio.PTS, f.Audio.Audio == nil)

	_, err = rtvi.DecodeFrame(b[:5])
	fmt.Println(err)
	// Output:
	// 16000 1 0 true
	// rtvi: malformed frame: offset 1: Frame field 2: length 9 exceeds the 3 bytes left
}
