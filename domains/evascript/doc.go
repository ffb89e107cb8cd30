// Package evascript makes the in-process agent's script for an eva_airline
// scenario: the model responses of an agent playing the scenario's gold
// path, the write calls that take its fixture DB to the DB NeMo's scoring
// expects (expected_db_hash).
//
//   - The gold paths are embedded (goldpaths.jsonl): for each scenario the
//     calls of its line of internal/conformance/testdata/nemo/
//     eva_airline_gold_paths.jsonl, which NeMo's own Python tools replayed
//     to the expected hash. A test keeps the two equal; `go test -update`
//     regenerates the file from the vectors. Scenarios the vectors have no
//     gold path for have no script ([ErrNoPath]).
//   - One response per gold call (agenttest.GoldTurns), then the goodbye
//     with the call to EndConversationTool, then the goodbye text alone.
//   - A script with fewer than tau2script.MinResponses responses starts
//     with greetings (text alone), so NeMo's --min-agent-turns gate (3 by
//     default) counts enough agent LLM calls; a greeting is what an agent
//     says first anyway. (eva tools all need arguments, so there is no
//     read-nothing call to pad with, as tau2's calculate is.)
//   - Response i reports the usage tau2script.Usage(i).
//   - Scenario names are NeMo's (eva_airline__1_1_3) or ids (1.1.3).
package evascript
