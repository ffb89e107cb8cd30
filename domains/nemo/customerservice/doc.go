// Package customerservice ports NVIDIA NeMo labs-Voice-Agent's
// customer-service evaluation tools (customer_service_tools.py):
// LookupAccountTool, CheckOrderStatusTool, ProcessRefundTool,
// StartItemReturnTool, ChangePlanTool, UnlockAccountTool,
// CancelSubscriptionTool and ResolveTicketTool, registered under
// [Domain] ("customer_service").
//
// Contract:
//   - The model sees the original's schemas word for word: names,
//     descriptions, properties and required lists come from the shipped
//     tool_schemas.jsonl (package nemodata). ChangePlanTool lists the
//     scenario's plans and ResolveTicketTool its resolution types, filled
//     into the recorded texts where the original fills them in.
//   - The accounts (orders nested) are the state value "accounts", not a
//     DB table: the original keeps them in its shared-state dict beside
//     the DB, so they never reach the DB hash a harness reports. Building
//     LookupAccountTool seeds them from its "accounts" argument with
//     setdefault, as every other tool but ResolveTicketTool seeds "{}":
//     build the tools in the scenario's order.
//   - Arguments are taken as the original's _execute takes them:
//     unchecked, any JSON value, absent ones None, extra ones ignored.
//     What Python raises on them (float("x"), an unhashable id, a record
//     that is not a dict) is the delivered {"error": str(exc)}; changes
//     made before the exception stay, as in Python.
//   - Results, the ResolveTicketTool summary ("<final_response>…
//     </final_response>", pushed through the state's notifier before the
//     result) and error texts are the original's, byte for byte: dicts
//     keep Python's insertion order, money is formatted as
//     "-$1,234.56", floats print as Python prints them.
//   - Every tool is safe for concurrent use; calls on one state run one
//     at a time.
package customerservice
