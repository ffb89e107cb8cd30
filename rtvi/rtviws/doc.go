// Package rtviws serves a bot to an evaluation harness over WebSocket, the
// way NVIDIA NeMo's evaluation bridge reaches its pipecat bots: pipecat
// protobuf frames, RTVI client messages handed to an rtvi.Dispatcher, user
// text handed to a pluggable Brain. A Go harness can run Go bots
// in-process over loopback; the command cmd/rtvibot (scripted, gold and
// LLM brains) is a thin main over it. Parity notes:
// docs/parity/rtvi-rtviws.md.
//
// Contract:
//
//   - [Server] is an http.Handler, built by [New] from a [Config] (the only
//     way to configure it; zero [Timeouts] fields take their defaults). Each
//     request is one WebSocket connection, read limit 1 MiB; Hosts that
//     are not loopback names are refused (DNS rebinding) unless
//     [Config].AllowRemote, and [ListenLoopback] refuses non-loopback
//     addresses.
//   - Frames: message frames go to the dispatcher, whose reply goes back on
//     the same connection; text frames, transcriptions (after a
//     user-transcription event) and send-text are one user [Turn] each,
//     answered by [Brain.Turn]; other frames are ignored, frames that do
//     not decode dropped.
//   - A connection's turns run in order on a goroutine of their own (at
//     most 64 waiting; more are refused with an error event), so pulls and
//     sync deltas are answered mid-turn and a hung model leaves a pullable
//     context. A failed turn (error or panic) is reported at once as an
//     RTVI error event, "the bot's turn failed: <error>". reset,
//     update_system_prompt and apply_initialization interrupt the turn in
//     progress and drop the queued ones.
//   - Each connection has its own rtvi.Emitter ([Turn].Events) and write
//     deadline ([Timeouts].Write): a write that fails or times out closes
//     that connection only. A connection silent for [Timeouts].Idle is
//     closed (0: never).
//   - One scenario at a time, one owner at a time (owner.go has the
//     rules): the connection that prepares a scenario, then exactly one
//     run connection — the first whose client-ready came after the
//     preparation's last message. Everyone else's scenario messages and
//     text are refused with an error naming the scenario in progress;
//     conversation with no scenario in progress is refused too. A
//     preparing message that finds the bot busy waits ([Timeouts].Grace,
//     or until a reservation ends); a reservation lapses [Timeouts].RunWait
//     after its preparer closed while no candidate run connection is open.
//   - [Turn].Scenario numbers each turn's scenario, for state a brain keeps
//     per scenario.
//   - Tool messages (action-applied, <exit>) and events go to the
//     connection in the turn's context, else to the scenario's owner
//     ([ErrNoConnection] when there is none).
//   - [AgentBrain] is the Brain of an LLM bot: agent.Loop over any
//     agent.Model, with the scenario's prompt and tools from
//     update_system_prompt ([AgentBrain.Wire]).
package rtviws
