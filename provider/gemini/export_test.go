package gemini

// Test hooks into the unexported rendering and reading.
var (
	Contents      = contentsOf
	ReadResponses = readResponses
)

// MadeUpIDPrefix starts the call ids the adapter makes up.
const MadeUpIDPrefix = madeUpIDPrefix

// NativeKey is the key of the adapter's data in agent.Message.Native.
const NativeKey = nativeKey
