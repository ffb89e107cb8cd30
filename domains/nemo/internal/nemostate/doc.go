// Package nemostate is what the ports of NeMo's non-eva evaluation tools
// (customerservice, waitlist, restaurant, basictools) share: Python dicts,
// the per-scenario state values the originals keep beside the DB, and the
// binding of a model's arguments to a Python _execute.
//
//   - Map is a Python dict: insertion order, reference semantics, JSON in
//     its order. FromValue, Py and Plain convert between it, pyvalue's
//     Dict and plain JSON trees.
//   - The tools' state lives in state.Shared values under the original's
//     keys ("accounts", "waitlist"), never in the DB, so a harness's DB hash
//     is the original's. Setdefault seeds a key at construction; Update runs
//     a call's read-modify-write, one at a time per state, and keeps the key
//     order of what it wrote in a store under a "__" value (bot-side, as the
//     original's "__rtvi__"); StateValues is the state minus such keys, what
//     the vectors hash.
//   - Tool binds arguments as Python binds keyword arguments (extra ones a
//     TypeError unless the original takes **kwargs; "self" a duplicate) and
//     returns a Python exception as {"error": str(exc)} through the live
//     path. Presented/SpecOf take the model-visible texts from the shipped
//     tool_schemas.jsonl.
package nemostate
