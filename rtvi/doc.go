// Package rtvi is the bot side of RTVI as NVIDIA NeMo's evaluation bridge
// speaks it: a Go bot built on it is prepared, run and scored by a harness
// written for NeMo's pipecat bots. Parity notes: docs/parity/rtvi.md.
//
// Contract:
//
//   - Wire: binary WebSocket messages, each a pipecat protobuf [Frame]
//     ([DecodeFrame], [Frame.Marshal]); an RTVI message is the JSON text of
//     a [MessageFrame] ([MessageFrameBytes]). Replies are written as
//     Python's json.dumps writes them (object keys sorted).
//   - A [Dispatcher] owns the protocol, nothing else: the bot's read loop
//     hands it each frame ([Dispatcher.HandleFrame]) or message JSON
//     ([Dispatcher.Handle]) in arrival order and writes back the reply. A
//     bot has one Dispatcher for its life (the harness prepares a scenario
//     on one connection and runs it on the next).
//   - [Config] plugs in what the handlers act on: the shared state, a tool
//     registry ([Config.Tools]; nil is an empty one, and a scenario naming
//     a tool is then refused), the LLM context ([Conversation]), where tools
//     are installed ([ToolInstaller]), services to reset ([Resetter]) and
//     calls in flight ([InFlight]; [CallTracker] is ready-made).
//   - The six client messages are built in: reset, update_system_prompt,
//     apply_initialization, apply_sync_delta, get_context_history (waits at
//     most 3 s for calls in flight; media blobs replaced by "<audio>",
//     "<image>", "<file>", "<binary>") and get_scenario_summary (the DB
//     hash is dbhash's, null for an empty DB); any other t is an
//     error-response. The handshake (client-ready → bot-ready) and
//     send-text ([Config.SendText]) are answered too.
//   - Tools push server-messages (action-applied, "<exit>…</exit>") through
//     the notifier update_system_prompt installs in the state
//     ([state.Shared.Notifier]), sent by [Config.Send].
//   - An [Emitter] sends the server events NeMo's runner scores a bot from
//     (bot-started-speaking, bot-tts-text, bot-stopped-speaking, metrics
//     tokens, user-transcription, error), in pipecat 1.6.0's shapes, one
//     call per stage ([Emitter.Say] for a whole turn of text). An Emitter
//     is one connection's; give every write a deadline.
//   - With [Config.Sources], a db_path DB is decoded once per process and
//     shared copy-on-write by every scenario; replies are the same as
//     without, and a Source a tool wrote under View is restored (logged).
//   - A refused request leaves the state as it was; it is answered as the
//     Python original answers it: false, {"success": false, "errors"}, or
//     an error-response naming a Python exception kind ("ValueError: ...").
//   - Only input that is not RTVI (invalid JSON, no id, over
//     [Config.MaxMessageBytes]) makes Handle return an error wrapping
//     [ErrMalformed], with pipecat's error event as reply. A frame that does
//     not decode is an ErrMalformed error with no reply; a frame of another
//     kind wraps [ErrNotMessage].
//   - Every reply fits a message frame of [Config.MaxReplyBytes] (1 MiB by
//     default): an oversized answer becomes an error-response, an
//     error-response's text is clipped to 1000 bytes as written, the id
//     echoed when it fits.
//   - Nothing panics on bad input; a panic in what the bot plugs in becomes
//     an error-response.
//
// rtvi/rtviws serves a bot this way over WebSocket; cmd/rtvibot is a
// complete bot on it.
package rtvi
