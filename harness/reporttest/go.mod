module github.com/voiceeval/schematools/harness/reporttest

go 1.26.0

require (
	github.com/chromedp/cdproto v0.160.1
	github.com/chromedp/chromedp v0.23.1
	github.com/voiceeval/schematools v0.0.0
)

require github.com/go-json-experiment/json v0.0.0-20260214004413-d219187c3433 // indirect

replace github.com/voiceeval/schematools => ../..
