// Package nemoeval connects NeMo's shipped scenarios (domains/nemo/scenarios)
// to the library harness, which must not import the examples.
//
//   - Scenario converts one shipped scenario to the harness.Scenario that
//     harness.RunScenario sets up and harness.Score reads: every setup field
//     (prompts, tools, shared-state inits, initialisation actions,
//     max_duration) and every scoring field (signals, reference answer,
//     expected DB hash, NL and DB-state assertions, comparator options).
//   - It is the one converter: harness's own tests reach it through a test
//     hook, so the two never drift apart.
//   - The result shares the shipped record's maps and slices; callers must
//     not modify them.
package nemoeval
