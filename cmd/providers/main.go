// Command providers writes every tool set of this repository — each domain
// of domains — in every provider dialect package tool/schema
// exports, as JSON files a provider SDK can take as they are:
//
//	<domain>.openai.json                 Chat Completions tools (a list)
//	<domain>.openai_strict.json          the same with schema.Strict
//	<domain>.responses.json              Responses API tools (a list)
//	<domain>.responses_strict.json       the same with schema.Strict
//	<domain>.anthropic.json              Messages API tools (a list)
//	<domain>.gemini.json                 one Gemini tool {"functionDeclarations": [...]}
//	<domain>.gemini_go.json              the same for Google's Go SDK (int64 keywords as numbers)
//	<domain>.gemini_removed.json         what the Gemini export changed (removed, renamed, JSON text)
//	<domain>.changed.json                what each dialect changed so the provider accepts it
//	index.json                           the domains and dialects written
//
// The Node suite in clienttest runs it and checks every file with the
// providers' own SDKs and ajv.
//
//	go run ./cmd/providers -out /tmp/exports
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/voiceeval/schematools/domains"
	"github.com/voiceeval/schematools/registry"
	"github.com/voiceeval/schematools/tool"
	"github.com/voiceeval/schematools/tool/schema"
)

// Dialects are the exports written for each domain, in order.
var dialects = []string{"openai", "openai_strict", "responses", "responses_strict", "anthropic", "gemini", "gemini_go"}

func main() {
	out := flag.String("out", "", "directory to write the exports to (created)")
	flag.Parse()
	if *out == "" {
		fmt.Fprintln(os.Stderr, "usage: providers -out DIR")
		os.Exit(2)
	}
	if err := run(*out); err != nil {
		fmt.Fprintln(os.Stderr, "providers:", err)
		os.Exit(1)
	}
}

func run(dir string) error {
	reg := new(registry.Tools)
	if err := domains.Register(reg); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	index := map[string]any{"dialects": dialects}
	var names []string
	for _, domain := range domains.Names() {
		var tools []tool.Tool
		for _, name := range reg.Names(domain) {
			tl, err := reg.New(domain, name, registry.Deps{})
			if err != nil {
				return fmt.Errorf("%s/%s: %w", domain, name, err)
			}
			tools = append(tools, tl)
		}
		files, err := export(tools)
		if err != nil {
			return fmt.Errorf("%s: %w", domain, err)
		}
		for suffix, v := range files {
			if err := write(filepath.Join(dir, domain+"."+suffix+".json"), v); err != nil {
				return err
			}
		}
		names = append(names, domain)
	}
	index["domains"] = names
	return write(filepath.Join(dir, "index.json"), index)
}

// export returns each dialect's JSON for tools, by file suffix, and what
// each changed ("changed": dialect -> lines, never null).
func export(tools []tool.Tool) (map[string]any, error) {
	out := map[string]any{}
	changed := map[string][]string{}
	jsonDialects := []struct {
		name   string
		export func([]tool.Tool, *schema.Options) ([]json.RawMessage, error)
		strict bool
	}{
		{"openai", schema.OpenAI, false},
		{"openai_strict", schema.OpenAI, true},
		{"responses", schema.OpenAIResponses, false},
		{"responses_strict", schema.OpenAIResponses, true},
		{"anthropic", schema.Anthropic, false},
	}
	for _, d := range jsonDialects {
		lines := []string{}
		v, err := d.export(tools, &schema.Options{Strict: d.strict, Report: &lines})
		if err != nil {
			return nil, err
		}
		out[d.name], changed[d.name] = v, lines
	}
	for name, f := range map[string]func([]tool.Tool) (json.RawMessage, []string, error){"gemini": schema.Gemini, "gemini_go": schema.GeminiGo} {
		v, removed, err := f(tools)
		if err != nil {
			return nil, err
		}
		if removed == nil {
			removed = []string{}
		}
		out[name], changed[name] = v, removed
	}
	out["gemini_removed"], out["changed"] = changed["gemini"], changed
	return out, nil
}

func write(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}
