// Command regenerate rebuilds the shipped NeMo scenarios from NeMo's
// scenario_configs.jsonl (scenarios.Regenerate): the compact files under
// domains/nemo/nemodata/scenarios and the hash manifest
// internal/conformance/testdata/nemo/scenario_configs.sha256. Run it from
// the repository root:
//
//	go run ./domains/nemo/scenarios/regenerate -source ../shared/conformance/nemo/scenario_configs.jsonl
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/voiceeval/schematools/domains/nemo/scenarios"
)

func main() {
	source := flag.String("source", "", "NeMo's scenario_configs.jsonl (required)")
	root := flag.String("root", ".", "the repository root")
	flag.Parse()
	if err := run(*source, *root); err != nil {
		fmt.Fprintln(os.Stderr, "regenerate:", err)
		os.Exit(1)
	}
}

func run(source, root string) error {
	if source == "" {
		return fmt.Errorf("-source is required")
	}
	data, err := os.ReadFile(source)
	if err != nil {
		return err
	}
	c, err := scenarios.Regenerate(data)
	if err != nil {
		return err
	}
	dir := filepath.Join(root, "domains", "nemo", "nemodata", "scenarios")
	for path, b := range map[string][]byte{
		filepath.Join(dir, "scenarios.jsonl"): c.Scenarios,
		filepath.Join(dir, "lines.jsonl"):     c.Lines,
		filepath.Join(dir, "texts.jsonl"):     c.Texts,
		filepath.Join(root, "internal", "conformance", "testdata", "nemo", "scenario_configs.sha256"): c.Manifest,
	} {
		if err := os.WriteFile(path, b, 0o644); err != nil {
			return err
		}
	}
	fmt.Printf("%d scenario records written\n", bytes.Count(c.Manifest, []byte("\n")))
	return nil
}
