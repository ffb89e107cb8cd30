// Package nemodata embeds the fixtures of NVIDIA NeMo labs-Voice-Agent's
// evaluation domains other than tau2, and the LLM-visible schema of each of
// their tools: eva_airline/ (the 50 scenario databases and the dataset,
// from ServiceNow/eva 0.1.3, MIT), other_domains/ (the tool settings of the
// customer_service, waitlist, restaurant and qa scenarios), basic_tools/
// (ReadFileTool's inputs) and tool_schemas.jsonl. The NOTICE file beside
// this package gives each part's origin and licence.
package nemodata

import "embed"

// FS holds eva_airline/, other_domains/, basic_tools/ and
// tool_schemas.jsonl at its root, as they are on disk.
//
//go:embed eva_airline other_domains basic_tools scenarios tool_schemas.jsonl
var FS embed.FS
