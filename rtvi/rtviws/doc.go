// Package rtviws serves a bot to an evaluation harness over WebSocket, the
// way NVIDIA NeMo's evaluation bridge reaches its pipecat bots: pipecat
// protobuf frames, RTVI client messages handed to an rtvi.Dispatcher, user
// text handed to a pluggable Brain. It is library code so that a Go
// harness can run Go bots in-process over loopback, and commands
// (examples/rtvibot, provider/openai/cmd/rtvibot) are thin mains over it.
//
//   - Server is an http.Handler: each request is one WebSocket connection,
//     read limit 1 MiB (the Python bridge's); Hosts that are not loopback
//     names are refused (DNS rebinding); ListenLoopback refuses
//     non-loopback addresses.
//   - Frames: message frames go to the dispatcher (its reply goes back on
//     the same connection); text frames, transcriptions (after a
//     user-transcription event) and send-text are one user turn each,
//     answered by Brain.Turn; audio and other frames are ignored; frames
//     that do not decode are dropped, as pipecat drops them.
//   - A connection's user turns run in order on a goroutine of their own
//     (at most 64 waiting; more are refused with an error event), so the
//     connection keeps reading while a turn waits on its model: pulls and
//     sync deltas are answered mid-turn, as a pipecat bot's RTVI processor
//     answers them while its LLM service works, and a hung model leaves a
//     pullable context. send-text is answered once queued; a turn's error
//     reaches the harness as an error event. reset, update_system_prompt
//     and apply_initialization interrupt the turn in progress (its context
//     is cancelled) and drop the queued ones; a closed connection's turns
//     end with it.
//   - Each connection has its own rtvi.Emitter and a write deadline
//     (Timeouts.Write): a peer that stops reading holds up no other, and a
//     write that fails or times out closes that connection only. A
//     connection silent for Timeouts.Idle is closed.
//   - One scenario at a time, one owner at a time: the connection that
//     prepares a scenario (reset, update_system_prompt,
//     apply_initialization), then the first later connection that runs it,
//     own it; other connections' scenario messages and text are refused
//     with an error naming the scenario in progress, and never reach the
//     dispatcher or the brain. A prepared scenario whose run does not come
//     within Timeouts.RunWait is given up.
//   - Tool messages (action-applied, <exit>) and events go to the
//     connection in the turn's context, else to the scenario's owner.
//   - AgentBrain is the Brain of an LLM bot: agent.Loop over any
//     agent.Model, with the scenario's prompt and tools from
//     update_system_prompt, as NeMo's bot_server.py serves either role.
package rtviws
