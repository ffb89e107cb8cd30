// Package schemacheck holds one test: for every tool in this repository
// (every domain of domains: coffee, tau2, eva_airline, NeMo's
// other domains, and the harness tools), arguments generated from the tool's exported JSON Schema are
// checked twice, by the schema (draft 2020-12, santhosh-tekuri/jsonschema)
// and by the tool itself, and the two verdicts must agree.
//
//   - Every disagreement falls in a category (tool set, kind of argument
//     change, JSON type of the property, which side accepts); the categories
//     are pinned in testdata/disagreements.golden, and docs/decisions.md gives
//     the reason for each. A new category fails the test; so does a pinned
//     one that no longer occurs. Run `go test ./internal/schemacheck -update`
//     to rewrite the file after a deliberate change, and say why in
//     docs/decisions.md.
//   - A tool "refuses" arguments when it answers with its validation result
//     (tool.ValidationResult, a result whose error_type is the tool's own
//     validation error type, or one of eva_airline's per-field
//     invalid_… error types) or, for a NeMo tool whose _execute takes no
//     **kwargs, raises Python's "unexpected keyword argument"; any other
//     answer, including the not-loaded answer of a tool without a DB,
//     accepts them.
//   - Generation is deterministic: a valid instance built from the schema,
//     then every property omitted, retyped, pushed past its bounds or enum,
//     and an unknown key added, at every nesting level.
package schemacheck
