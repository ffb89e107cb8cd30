package harness

import "github.com/voiceeval/schematools/rtvi/bridge"

// tokensOfUsage is one side's token_usage from what its recorder counted.
func tokensOfUsage(u bridge.Usage) Tokens {
	return Tokens{NCalls: u.Calls, Prompt: u.Prompt, Completion: u.Completion}
}
