// Package tau2test holds what the tests of the tau2-bench ports share
// that is particular to tau2; the domain-independent helpers (gold lines,
// the conformance checks, fixtures, the benchmark and fuzz bodies) are in
// package replaytest.
//
//   - SharedDB, Tasks and LoadGold read the tau2 data vendored in
//     domains/tau2/tau2data and the reference's gold replay
//     (gold_replay_<dir>.train.jsonl of the conformance vectors), found
//     through internal/conformance, once per test binary: a missing file
//     fails the test, naming its path.
//   - RequireTrainSplit replays a domain's train split (its gold lines) on
//     the shared DB with replaytest.RequireGold.
//   - RequireToolSet and RequireSchemas check the conventions of NeMo's
//     tau2 tools: every tool registered without keyword arguments (a
//     CalculateTool given one is refused), every parameter required and
//     described.
//   - RequireOriginals checks a domain's tools against the Python
//     original's schemas (tau2orig.Original): what each tool presents is
//     the original's exactly (pyschema.Compare), and what its parameters
//     struct declares — built with Properties: map[string]any{} (tau2tools.New) — agrees with
//     it in property names and order, types, enums, nested items and
//     required lists (DeclarationDiff), texts aside, but for differences a
//     domain lists; the declaration carries no texts.
package tau2test
