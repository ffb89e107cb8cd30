package bridge

// Test-only names for the external tests of unexported code.
var (
	DecodeFrame   = decodeFrame
	DecodeMessage = decodeMessage
	ParseLiteral  = parseLiteral
	ToolsJSON     = toolsJSON
)

type InitError = initError
