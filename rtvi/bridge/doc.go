// Package bridge is the client side of RTVI as NVIDIA NeMo's evaluation
// bridge (nemo_voice_agent/evaluation/bridge.py, labs-Voice-Agent at
// 1a83139) speaks it to a bot — a Go bot built on package rtvi or a
// pipecat one — for a text-mode harness to prepare, run and pull a
// scenario exactly as NeMo does.
//
// Contract (the bridge.py behaviour each point follows in parentheses):
//
//   - Wire: binary WebSocket messages, each a pipecat protobuf frame; RTVI
//     messages are the JSON of a message frame, written as Python's
//     json.dumps writes the bridge's dicts (keys in the bridge's order,
//     ", " and ": ", non-ASCII escaped) so a bot sees the same bytes
//     (ProtobufFrameSerializer, MessageFrame(data=json.dumps(...))).
//   - [Dial] connects, sends client-ready {"version": "1.1.0", "about":
//     {"library": "evaluation-bridge", "library_version": "1.0.0"}} and
//     waits 5 s for a message of type bot-ready, whatever its id
//     (_send_client_ready). NeMo logs a timeout and carries on; Dial fails
//     with [ErrTimeout] unless [Options.LenientHandshake].
//   - Ids are "<prefix><repr(datetime.now().timestamp())>" with the
//     bridge's prefixes (reset_, update_prompt_, apply_init_<side>_,
//     apply_sync_delta_<side>_, get_context_history_,
//     get_scenario_summary_, client_ready_, send_text_); unlike NeMo's they
//     never repeat on one connection.
//   - Not awaited, as NeMo: [Conn.Reset] {}, [Conn.UpdateSystemPrompt]
//     {prompt, tools, add_suffix: false, tool_domain} (tools is the JSON
//     string json.dumps(scenario tools), or "{}": [toolsJSON];
//     to_tools_json_string), [Conn.ApplySyncDelta] {domain, delta}
//     (_send_apply_sync_delta, whose docstring says it waits), and
//     [Conn.SendText] {content, options: {run_immediately: true,
//     audio_response: true}} — the kickoff [Kickoff] "Hello", sent
//     [KickoffDelay] after the run handshake (send_text_to_agent). Their
//     answers arrive as events.
//   - [Conn.ApplyInitialization] {domain, shared_state_init (the JSON
//     string of the dict), actions} waits 15 s for the answer with its
//     id, skipping others; success falsy, an error-response, a timeout or
//     a closed connection is an [*initError] wrapping [ErrInitAborted],
//     with NeMo's RuntimeError text: the harness aborts the scenario
//     unscored (_send_apply_initialization).
//   - [Conn.GetContextHistory] and [Conn.GetScenarioSummary]
//     {include_db} wait 15 s each for the first server-response of ANY id
//     (the history also for an error-response), as NeMo matches them by
//     type only. The consequence: a late answer to another request (a
//     reset's true, an apply_sync_delta's result) arriving after the
//     request is taken for its answer — [ErrUnexpectedReply] when its d
//     is no object, silently wrong when it is one — and an error-response
//     to the summary is ignored until the timeout. Send them last, one at
//     a time, as the bridge does (_retrieve_context_history,
//     _retrieve_scenario_summary). Unlike NeMo, whose one reader is the
//     waiting function, answers that came before the request was sent
//     are not taken.
//   - Awaited requests run one at a time on a connection; every method is
//     safe for concurrent use.
//   - Events: every frame is decoded ([decodeFrame], [decodeMessage]) into
//     an [Event] and delivered in order to [Options.OnEvent], answers
//     included; NeMo only monitors the run connection, the harness
//     chooses. Fields are read as the bridge reads them: bot-tts-text's
//     str(data.get("text", "")), metrics' tokens entries as int(x or 0),
//     server-message action-applied {action, tool_domain}, texts tagged
//     <exit>…</exit> and <final_response>…</final_response>
//     (_monitor_agent_message, _log_rtvi_event). Unknown types pass
//     through raw (KindOther).
//   - [Recorder] is the bridge's monitor: bot-started-speaking opens a
//     turn (closing one left open), bot-tts-text texts are glued as sent,
//     bot-stopped-speaking closes it; the text is stripped and an empty
//     one reads "[INTERRUPTED]" (_finalize_speaker_turn); each tokens
//     entry is one LLM call (n_calls, prompt, completion); only the
//     agent's <exit> and <final_response> count.
//   - The pulled context: get_context_history answers {"context": "<Python
//     literal>"}, which the bridge eval()s (and json.loads when that gives
//     a str) and writes with json.dump(indent=2)
//     (_save_bot_server_history). [History.Value] and [History.JSON] do
//     the same with [parseLiteral], a literal parser that evaluates
//     nothing; the zero [History] is what NeMo saves when the pull failed.
//   - Bounds: messages over 1 MiB (Python websockets' max_size) close the
//     connection with status 1009, as NeMo's does, and later calls fail
//     with [ErrClosed] saying so; writes are bounded by
//     [Options.WriteTimeout]; every wait by its timeout and by ctx (whose
//     end is returned as ctx's error).
//   - Faults: a frame or message that cannot be read — bad protobuf, a
//     text WebSocket message, invalid JSON, a non-object, fields the
//     bridge's Python would raise on — is a KindMalformed event and the
//     connection goes on (NeMo drops undecodable frames and lets such a
//     message end its receive loop). It also fails the waiting request at
//     once, with an error wrapping ErrMalformed that says what could not
//     be read (NeMo's waits out its timeout). A closed connection fails
//     the waiting request at once. Nothing panics on what a bot sends; a
//     panic in OnEvent closes the connection with that error.
//
// What stays the harness's: choosing sides and filtering initialization
// actions by side, the shadow-DB replay of action-applied records and the
// deltas it pushes, the run's duration and the 0.5 s settle after
// <exit>, merging the user bot's summary, and scoring.
package bridge
