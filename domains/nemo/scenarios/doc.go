// Package scenarios ships every scenario NVIDIA NeMo labs-Voice-Agent
// (1a83139) registers — 477: tau2 airline 50, retail 114, telecom 114,
// telecom_workflow 114, eva_airline 50, restaurant 11, customer_service 10,
// qa 10, fastbite 1, simple_qa_1..3 — as NeMo's own Scenario objects set
// them up, from the compact copy embedded in nemodata/scenarios/.
//
//   - Record(name) is NeMo's scenario_configs.jsonl line for the scenario,
//     byte for byte (json.dumps(record, sort_keys=True)); a test checks all
//     477 against the sha256 manifest in
//     internal/conformance/testdata/nemo/scenario_configs.sha256.
//   - Get(name) gives the typed view: tool domain, max_duration,
//     success_signals, the scenario_config files as text (Config) with the
//     prompts, the tool-map JSON texts update_system_prompt carries, the
//     reference answer, metadata.json parsed (assertions, NL assertions,
//     initialisation actions with their side, expected DB hashes), and each
//     side's shared_state_init.
//   - Names and All list the scenarios in name order; an unknown name is an
//     error, never a panic. The data is read once, on first use.
//   - The compact form stores each distinct text line once and each
//     distinct long text once, and refers eva_airline's inline DBs to the
//     fixtures nemodata/eva_airline already ships (a test proves equality);
//     Regenerate builds it from NeMo's file (go run
//     ./domains/nemo/scenarios/regenerate -source FILE writes it), and
//     regenerating from the shipped records gives the shipped files back.
package scenarios
