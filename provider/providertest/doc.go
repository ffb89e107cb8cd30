// Package providertest holds one table-driven test over the three model
// adapters (provider/openai, provider/anthropic, provider/gemini): the
// same scripted conversations — a tau2 task's gold calls, parallel calls,
// faults — run through agent.Loop on each against its dialect of the
// agent/agenttest stand-in, and must reach the same tool calls, the same
// results and the same DB hash. It is a module of its own, requiring the
// three adapter modules, so that none of them depends on the others.
package providertest
