// Package bridge is the harness side of RTVI as NVIDIA NeMo's evaluation
// bridge speaks it to a bot (a Go bot on package rtvi or a pipecat one):
// a text-mode harness prepares, runs and pulls a scenario exactly as NeMo
// does. Parity notes, point by point against bridge.py:
// docs/parity/rtvi-bridge.md.
//
// Contract:
//
//   - Wire: binary WebSocket messages, each a pipecat protobuf frame; the
//     bridge's RTVI messages are written byte for byte as NeMo's
//     json.dumps writes them (keys in its order, non-ASCII escaped).
//   - [Dial] connects, sends client-ready and waits for any bot-ready
//     ([Options.HandshakeTimeout], 5 s); without one it fails with
//     [ErrTimeout], unless [Options.LenientHandshake] (NeMo's behaviour).
//   - Request ids are "<prefix><Python timestamp>" with NeMo's prefixes;
//     they never repeat on one connection.
//   - Not awaited, as NeMo: [Conn.Reset], [Conn.UpdateSystemPrompt]
//     ([Prompt]), [Conn.ApplySyncDelta] and [Conn.SendText] (the kickoff
//     "Hello", which NeMo sends 1 s after the run handshake). Their
//     answers arrive as events.
//   - [Conn.ApplyInitialization] ([Init]) waits for the answer with its
//     id ([Options.RequestTimeout], 15 s); a falsy success, an
//     error-response, a timeout or a closed connection is an error
//     wrapping [ErrInitAborted] with NeMo's RuntimeError text: the harness
//     aborts the scenario unscored.
//   - [Conn.GetContextHistory] ([History]) and [Conn.GetScenarioSummary]
//     ([Summary]) wait for the first server-response of any id, as NeMo
//     matches them by type only: send them last, one at a time. A late
//     answer to another request is taken for theirs ([ErrUnexpectedReply]
//     when its d is no object); answers that came before the request are
//     not.
//   - Awaited requests run one at a time; every method is safe for
//     concurrent use.
//   - Every frame is decoded into an [Event] and delivered in order to
//     [Options.OnEvent], answers included; fields are read as bridge.py
//     reads them, unknown types pass through ([KindOther]).
//   - [Recorder] is NeMo's monitor of one bot: turns (an empty one reads
//     [Interrupted]), token [Usage] (one call per tokens entry), the
//     action-applied records and, for the agent, <exit> and
//     <final_response>. What it holds is bounded ([ErrBudget]).
//   - The pulled context: [History.Value] and [History.JSON] give what
//     NeMo eval()s and writes to llm_context.json, parsing the Python
//     literal without evaluating anything; the zero History is what NeMo
//     saves when the pull failed.
//   - Bounds: a message over 1 MiB closes the connection (status 1009) as
//     NeMo's does, later calls failing with [ErrClosed]; what a bot sends
//     on a connection and the nesting of its JSON are bounded too
//     ([Options.MaxStreamBytes], [Options.MaxDepth]; [ErrBudget]); writes
//     by [Options.WriteTimeout]; every wait by its timeout and by ctx.
//   - Faults: a frame or message that cannot be read is a [KindMalformed]
//     event, the connection goes on, and the waiting request fails at once
//     with an error wrapping [ErrMalformed]. A closed connection fails it
//     at once. Nothing panics on what a bot sends; a panic in OnEvent
//     closes the connection.
//
// What stays the harness's: choosing sides, the shadow-DB replay of
// action-applied records, the run's duration and scoring.
package bridge
