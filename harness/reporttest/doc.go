// Package reporttest loads harness's report.html for a fixed run in a
// headless Chromium (chromedp), a module of its own so that chromedp stays
// out of the core go.mod.
//
//   - The fixed run is harness/testdata/golden/run: its results.jsonl and
//     the eva_airline__1_1_3 db_diff.json, rendered with
//     harness.RenderReport.
//   - The test asserts no console error and no exception, the per-domain
//     table's numbers, a scenario's transcript and its DB diff visible,
//     and that the failed-only filter hides passing scenarios; it saves a
//     screenshot to $TMPDIR.
//   - The comparison page (harness.Comparison.HTML) of the golden run
//     against a copy with one scenario failed, one passed and one gone:
//     no console error, the regression with base's pass, head's fail and
//     why, the improvement and the scenario only base holds; markup in a
//     harness error shown, not run; a screenshot to $TMPDIR.
//   - Chromium is the Debian chromium binary (run with --no-sandbox as
//     root); missing, the test skips, or fails when CI is set.
package reporttest
