package agent

// ContextArgumentsSlow is the full-decode path of ContextArguments.
var ContextArgumentsSlow = contextArgumentsSlow

// TextCalls reads text as tool calls written as JSON, as RepairTextCalls
// does.
var TextCalls = textCalls
