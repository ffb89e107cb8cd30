// Package reporttest loads harness's report pages in a headless Chromium
// (chromedp), a module of its own so that chromedp stays out of the core
// go.mod.
//
//   - The fixed run is harness/testdata/golden/run: its results.jsonl,
//     the eva_airline__1_1_3 db_diff.json and agent context, rendered with
//     harness.RenderReport. The test asserts no console error and no
//     exception, the per-domain table's numbers, a scenario's transcript
//     (with its latency), its DB diff, its trajectory (collapsed until
//     opened: tool calls, results, a clipped argument, hostile text shown
//     as text), and that the failed-only filter hides passing scenarios.
//   - A run of three trials, evaluated with harness.Evaluate against
//     scripted in-process bots (a flaky, a passing and a failed
//     scenario): the top report's statistics, the failed-only and
//     flaky-only filters, the failing scenarios' trajectories with their
//     tool calls, a trial mark leading to that trial's section with its
//     trajectory open, and a trial's own report filtered.
//   - Screenshots go to $REPORTTEST_ARTIFACTS (else the temporary
//     directory); the test logs their paths.
//   - The comparison page (harness.Comparison.HTML) of the golden run
//     against a copy with one scenario failed, one passed and one gone:
//     no console error, the regression with base's pass, head's fail and
//     why, the improvement and the scenario only base holds; markup in a
//     harness error shown, not run.
//   - Chromium is the Debian chromium binary (run with --no-sandbox as
//     root); missing, the test skips, or fails when CI is set.
package reporttest
