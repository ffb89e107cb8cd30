// Package rtviws serves a bot to an evaluation harness over WebSocket, the
// way NVIDIA NeMo's evaluation bridge reaches its pipecat bots: pipecat
// protobuf frames, RTVI client messages handed to an rtvi.Dispatcher, user
// text handed to a pluggable Brain. It is library code so that a Go
// harness can run Go bots in-process over loopback, and commands
// (cmd/rtvibot, with its scripted, gold and LLM brains) is a thin main over it.
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
//     pullable context. send-text is answered once queued. A turn that
//     fails (its error, or a panic) is reported at once as an RTVI error
//     event, "the bot's turn failed: <error>", as pipecat reports its LLM
//     service's errors, so a harness ends the scenario instead of waiting
//     it out. reset, update_system_prompt and apply_initialization
//     interrupt the turn in progress (its context is cancelled) and drop
//     the queued ones; a closed connection's turns end with it.
//   - Each connection has its own rtvi.Emitter and a write deadline
//     (Timeouts.Write): a peer that stops reading holds up no other, and a
//     write that fails or times out closes that connection only. A
//     connection silent for Timeouts.Idle is closed.
//   - One scenario at a time, one owner at a time (owner.go has the
//     rules): the connection that prepares a scenario (reset,
//     update_system_prompt, apply_initialization; its reads and sync
//     deltas keep it the preparer), then exactly one run connection — the
//     first whose client-ready came after the preparation's last message
//     and that never tried to prepare meanwhile. Everyone else's scenario
//     messages and text are refused with an error naming the scenario in
//     progress and never reach the dispatcher or the brain; conversation
//     on a bot with no scenario in progress is refused too. A preparing
//     message that finds the bot busy waits (Timeouts.Grace, or until a
//     reserved scenario's reservation ends) rather than be refused at
//     once. A reservation lapses Timeouts.RunWait (10 s) after its
//     preparer closed while no candidate run connection is open, so NeMo's
//     bridge after an aborted preparation is answered within the 15 s it
//     waits for apply_initialization. The limit of what the wire allows:
//     a run connection that opens more than RunWait after its own
//     preparation closed may be taken for the next harness's run.
//   - Turn.Scenario numbers each turn's scenario, for state a brain keeps
//     per scenario.
//   - Tool messages (action-applied, <exit>) and events go to the
//     connection in the turn's context, else to the scenario's owner.
//   - AgentBrain is the Brain of an LLM bot: agent.Loop over any
//     agent.Model, with the scenario's prompt and tools from
//     update_system_prompt, as NeMo's bot_server.py serves either role.
package rtviws
