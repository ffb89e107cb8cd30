// Package tau2test holds the test helpers the tau2-bench ports share, so
// that each port's tests state only what is particular to its domain.
//
// # Unit tests
//
// NewFixture binds a domain's replay tools to a fresh state holding a
// small synthetic DB (DecodeDB reads one as Python's json.loads would);
// Fixture.Call runs a tool on the replay path and returns its raw result.
// Canon and RequireJSON compare results as Python would print them: ints
// and floats told apart, key order free. RequireToolSet and RequireSchemas
// check a domain's names, registration and the schemas the model sees;
// CallSet calls a tool on the live path.
//
// # Conformance with the Python reference
//
// SharedDB, Tasks and LoadGold read the tau2 data vendored in
// examples/tau2/tau2data and the reference's gold replay
// (gold_replay_<domain>.train.jsonl of the conformance vectors), found
// through internal/conformance: a missing file fails the test, naming its
// path. RequireTrainSplit replays every train task and requires, action
// by action, what the reference produced (RequireTask); ReplayAllShared
// replays many tasks on one shared DB, as the replay CLI does, checks that
// doing so changes nothing a plain replay would not, and sums the results
// up. BenchmarkReplay and FuzzTools are the bodies of each port's
// benchmark and fuzz test.
package tau2test
