package calltest

// JudgePrompt is the default judge prompt, for the external tests.
var JudgePrompt = judgePrompt
