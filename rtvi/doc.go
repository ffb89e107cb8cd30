// Package rtvi lets an evaluation harness drive a Go bot over RTVI exactly
// as NVIDIA NeMo's evaluation bridge drives its Python (pipecat) bots, so a
// harness written for those scores a Go bot without a line changed.
//
// A bot built on it has three parts:
//
//   - a [Dispatcher] over its transport: frames in ([Dispatcher.HandleFrame],
//     or [Dispatcher.Handle] for the JSON of one message), replies out, and
//     [Config.Send] for what tools push on their own;
//   - handlers for the client messages: the six of a scenario's lifecycle
//     are built in, acting on what [Config] plugs in (the bot's
//     [Conversation], [ToolInstaller], [Resetter] services, [InFlight]
//     calls); [Dispatcher.Register] adds or overrides one with a [Handler];
//   - an [Emitter] for the server events NeMo's runner scores a bot from.
//
// # Wire
//
// The harness and the bot exchange binary WebSocket messages, each a
// pipecat protobuf Frame ([DecodeFrame], [Frame.Marshal]). RTVI messages
// travel as the JSON text of a message frame ([MessageFrame],
// [MessageFrameBytes]):
//
//	{"label": "rtvi-ai", "type": "client-message", "id": "reset_1718000000.123", "data": {"t": "reset", "d": {}}}
//
// answered by a server-response with the same id and t, or an
// error-response:
//
//	{"label": "rtvi-ai", "type": "server-response", "id": "reset_1718000000.123", "data": {"t": "reset", "d": true}}
//	{"label": "rtvi-ai", "type": "error-response", "id": "...", "data": {"error": "unknown message type: nope"}}
//
// Tools push server-messages of their own (action-applied, "<exit>…</exit>")
// through the notifier the dispatcher installs in the scenario's state
// ([Dispatcher.Notifier]).
//
// # The six client messages
//
//   - reset: start the conversation again from the last prompt and reset
//     the bot's services; answers true.
//   - update_system_prompt {prompt, tools, add_suffix, tool_domain}: start a
//     scenario — new prompt, the shared state cleared in place, the tool
//     set built from the registry and installed; answers true or false.
//   - apply_initialization {domain, shared_state_init, actions}: seed the
//     scenario (merge state, load db_path under the data root, run the
//     initialisation functions of the domain's hooks.Set, which
//     [Config.Tools] holds); answers {"success", "errors"}.
//   - apply_sync_delta {domain, delta}: apply a cross-side delta with the
//     sync applier of the domain's hooks.Set; answers {"success",
//     "errors"}.
//   - get_context_history: wait (at most 3 s) for tool calls in flight, then
//     answer {"context": "<Python literal of the transcript>"}: the
//     Python repr of [Conversation.Messages], with media blobs (bytes,
//     data: URIs, the data of audio, image and file parts) replaced by
//     "<audio>", "<image>", "<file>" or "<binary>".
//   - get_scenario_summary {include_db}: answer {"actions", "db_hash"} (and
//     "db"), the hash being [dbhash.Hash] of the DB — null when it is empty.
//
// The handshake (client-ready → bot-ready) and send-text are answered too;
// a client-ready whose version is missing or of another major version than
// 1 or 2 first gets pipecat's warning as an error-response ([Config.Send]).
// [Dispatcher.Register] adds custom client messages.
//
// # Server events
//
// A pipecat bot also emits events as its pipeline runs, and NeMo's runner
// scores a bot from some of them. [Emitter] sends them through the bot's
// reply path, one call per stage of a turn, with pipecat 1.6.0's exact
// shapes (no event carries an id). What NeMo's evaluation bridge does with
// each:
//
//   - bot-started-speaking, bot-tts-text {text}, bot-stopped-speaking: a
//     turn of the conversation transcript (started opens it, each text is
//     appended as it is, stopped closes it; an empty one reads
//     "[INTERRUPTED]"). The LLM judge and the NL assertions read these
//     turns, and a run with none counts as crashed. The user side's turns
//     come from the user-simulator bot's own bot-* events.
//   - metrics {tokens: [...]}: every tokens entry from the agent is one
//     agent LLM response; fewer than --min-agent-turns (3 by default) and
//     the scenario is scored a stalled failure, whatever its DB.
//     [Emitter.LLMResponse] sends one per call. ttfb entries are logged
//     only (latency is measured from audio); processing and characters are
//     ignored.
//   - user-transcription {text, user_id, timestamp, final}
//     ([Emitter.UserTranscription], [Emitter.UserTurn]): logged only.
//   - bot-llm-*, bot-tts-started/stopped, user-started/stopped-speaking:
//     logged by type only.
//   - server-message {text: "<exit>…</exit>"} (sent by the end-conversation
//     tool): ends the scenario as a clean exit, one of the scoring signals.
//
// A Go bot without real audio lets text stand in for it: [Emitter.Say]
// sends a whole spoken turn.
//
// # Wiring a bot
//
// The bot owns the socket and the LLM; the [Dispatcher] owns nothing but the
// protocol. The bot gives it a [Config]: its shared state, a tool registry,
// and small interfaces for what the handlers act on — the LLM context
// ([Conversation]), where tools are installed ([ToolInstaller]), services
// to reset ([Resetter]) and tool calls in flight ([InFlight], for which
// [CallTracker] is ready-made). Its read loop passes each message to
// [Dispatcher.Handle] (or each frame to [Dispatcher.HandleFrame]) in arrival
// order and writes back the reply. A bot has one Dispatcher for its whole
// life, not one per connection: the harness prepares a scenario on one
// connection and runs it on the next. An [Emitter], though, is one
// connection's: give each its own, and give every write a deadline (a
// failed or timed-out write closes that connection), so a peer that stops
// reading holds up no other. rtvi/rtviws serves a bot this way, and
// cmd/rtvibot is a complete bot on it.
//
// # Sharing decoded DBs
//
// With [Config.Sources] (a [state.SourceCache], one for all the bots of a
// process), a db_path DB is decoded once and shared copy-on-write by
// every scenario that loads it; the replies are the same as without.
//
//   - apply_initialization installs the cached Source of the path
//     ([state.Seed.Source]) instead of decoding the file; a changed file
//     is decoded again, and the path rules and errors are LoadDB's.
//   - Nothing the dispatcher or a tool keeping the rules does writes into
//     the Source: initialisation functions run after the tables their
//     hooks.Init names (all, when it names none) are copied;
//     apply_sync_delta copies the whole DB first (UpdateTables(nil, …));
//     tools write through [state.Shared.UpdateTables], copying the tables
//     they name, or a [state.Writer], copying the records they change.
//   - get_scenario_summary hashes as [state.Shared.Hash] does: the
//     Source's hash for a DB nothing wrote, the Source's canonical text
//     for the tables a scenario did not write.
//   - A tool that breaks the rules (writes under View) changes the Source:
//     the next load of the path finds it ([state.Source.Verify]), restores
//     it before the new scenario sees it, and the dispatcher logs a
//     warning, since what earlier scenarios computed on it may be wrong.
//
// # Failures
//
//   - Nothing here panics on bad input, and a panic in what the bot plugs in
//     (a handler, a callback, a value's MarshalJSON) becomes an
//     error-response.
//   - A request that cannot be carried out is answered, as the Python
//     original's are: false, {"success": false, "errors": [...]}, or an
//     error-response whose text names a Python exception kind
//     ("ValueError: ..."). A [Handler] chooses the kind of its
//     error-response by returning an [Error]; any other error is a
//     RuntimeError.
//   - A refused request leaves the state as it was: update_system_prompt
//     checks its arguments and builds the tool set on a scratch state
//     before it changes anything, apply_initialization checks the whole
//     request and loads the DB file first, and apply_sync_delta applies a
//     delta to a copy that replaces the DB only when every key applied.
//   - Only input that is not an RTVI message at all (invalid JSON, a
//     missing id, a message over [Config.MaxMessageBytes]) makes Handle
//     return an error wrapping [ErrMalformed], along with the RTVI error
//     event pipecat sends for it.
//   - A frame that cannot be decoded is an [ErrMalformed] error with no
//     reply (pipecat drops it); a frame of another kind is an
//     [ErrNotMessage] error, for the bot to route.
//   - Every reply, and the handshake warning sent through [Config.Send],
//     fits in a message frame of [Config.MaxReplyBytes] (1 MiB by
//     default), whatever the request echoes: a larger server-response or
//     bot-ready becomes an error-response saying so; an error-response's
//     text is at most 1000 bytes as written (JSON escapes counted), clipped
//     in the middle ("ab...yz"); the request id is echoed exactly when it
//     fits and is otherwise clipped, or "" (a short id is kept and the text
//     clipped instead). A limit below 83 bytes, too small for any
//     error-response, leaves a request without a reply.
//   - An error-response names one Python exception kind: an [Error]
//     wrapped in context (fmt.Errorf("lookup: %w", err)) reads
//     "KeyError: lookup: 'x'".
//
// # Differences from the Python original
//
//   - apply_sync_delta reports an applier's failure (success false) and
//     applies nothing, where Python logs it, answers success and keeps the
//     keys applied before the failing one.
//   - A db_path that is absolute or climbs out of the data root is refused
//     (PermissionError) instead of being opened.
//   - A refused update_system_prompt or apply_initialization changes nothing,
//     where Python keeps the steps done before the failure (a failure of the
//     bot's own ToolInstaller or services comes after the state was
//     cleared, and leaves the new scenario started).
//   - Sync delta keys are applied in sorted order, not in the JSON order
//     Python keeps; only deltas whose paths overlap ("a" and "a.b") can
//     tell the difference.
//   - After an inline "db": null, a later db_path loads the DB (Python
//     keeps the None, the key being present).
//   - When the transcript cannot be read, get_context_history answers the
//     string "[]" (Python answers a list, which its harness cannot eval).
//   - shared_state_init may also be an inline object, and a JSON null for
//     an argument whose Python default differs from None is read as that
//     default for domain and shared_state_init.
//   - Replies are written as Python's json.dumps writes them, but object keys
//     come out sorted (Python keeps insertion order); consumers parse JSON.
//
// [dbhash.Hash]: github.com/voiceeval/schematools/dbhash.Hash
package rtvi
