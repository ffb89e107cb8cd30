// Package waitlist ports NVIDIA NeMo labs-Voice-Agent's restaurant
// waitlist tools (waitlist_tools.py): JoinWaitListTool, DropWaitListTool
// and GetWaitlistTool, registered under [Domain] ("waitlist").
//
// Contract:
//   - The model sees the original's schemas word for word, from the
//     shipped tool_schemas.jsonl (package nemodata).
//   - The waitlist is the state value "waitlist" (beside the DB, as in the
//     original's shared-state dict): JoinWaitListTool seeds it from its
//     "initial_waitlist" JSON text, the others with [] — each with
//     setdefault when built, so build the tools in the scenario's order.
//   - JoinWaitListTool and DropWaitListTool take exactly their named
//     arguments: any other is the original's TypeError, delivered as
//     {"error": "<Class>._execute() got an unexpected keyword argument
//     '<k>'"}; GetWaitlistTool ignores arguments. Arguments are otherwise
//     unchecked, any JSON value, absent ones None.
//   - Join and Drop push the updated waitlist as a scenario summary
//     ("<final_response>{json}</final_response>", json.dumps text) through
//     the state's notifier before their result.
//   - Every tool is safe for concurrent use; calls on one state run one
//     at a time.
package waitlist
