package agent

// ContextArgumentsSlow is the full-decode path of ContextArguments.
var ContextArgumentsSlow = contextArgumentsSlow
