// Package basictools ports the tools of NVIDIA NeMo labs-Voice-Agent's
// basic_tools.py that the qa, simple_qa and restaurant scenarios use:
// GetCityWeatherTool, ReadFileTool, PlaceOrderTool and
// SaveQuestionAnswerTool, registered as NeMo registers them, in the
// default domain ([Domain]) that every domain falls back to. The
// harness's EndConversationTool, TransferToHumanAgentsTool and
// SendScenarioSummaryTool stay the harness's: no name collides.
//
// Contract:
//   - The model sees the original's schemas word for word, from the
//     shipped tool_schemas.jsonl (package nemodata), including PlaceOrderTool's
//     "list" and "float" property types.
//   - None of the tools takes **kwargs: an extra argument is the
//     original's TypeError, delivered as {"error": "<Class>._execute() got
//     an unexpected keyword argument '<k>'"} (the first in sorted order
//     when there are several: a Go map has no order). Arguments are
//     otherwise unchecked, any JSON value, absent ones None.
//   - PlaceOrderTool validates when its auto_validate argument is truthy
//     in Python's sense ("False" is): each item must hold name,
//     unit_price and quantity, be on the menu when ValidItemNames is set,
//     with non-negative price and quantity, and the total must pass
//     numpy.isclose (rtol 1e-05, atol 1e-08). Failures are ValueErrors,
//     delivered as {"error": str(exc)}.
//   - SaveQuestionAnswerTool and PlaceOrderTool push their json.dumps
//     text as a scenario summary ("<final_response>…</final_response>")
//     through the state's notifier before their result.
//   - ReadFileTool reads under a root (fs.FS; Register uses the embedded
//     basic_tools fixtures) as Python's open(path).read() does — UTF-8,
//     universal newlines, the original's error texts as results — and
//     refuses any path leaving the root.
package basictools
