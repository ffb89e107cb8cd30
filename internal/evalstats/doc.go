// Package evalstats holds the statistics of repeated trials: how sure a
// pass rate is, and whether two runs differ. It is deterministic: every
// random choice comes from a PCG generator seeded by the caller.
//
// The package's contract, in short:
//
//   - An [Outcome] is one scenario's Successes of Trials. It is valid when
//     0 <= Successes <= Trials; a function given an invalid one returns
//     NaN (or false) rather than panicking; so do negative counts, k < 1,
//     empty slices and confidences outside (0, 1).
//   - [Wilson] is the Wilson score interval of a proportion. Zero trials
//     give (0, 1), the interval of a proportion nothing is known about.
//   - [PassHatK] is tau-bench's unbiased pass^k: the mean over scenarios of
//     C(c,k)/C(n,k), the chance that k trials drawn without replacement
//     from a scenario's n all succeeded. It needs n >= k for every
//     scenario and reports false otherwise. With k = 1 it is pass@1, the
//     mean of c/n. The plug-in mean of (c/n)^k is biased upwards for k > 1.
//   - [FlakyShare] is the share of scenarios that both passed and failed.
//   - [Bootstrap] is the percentile bootstrap interval of any statistic of
//     the scenarios, resampled with replacement: scenarios, not trials,
//     are the units, so the interval speaks about a scenario set like this.
//   - [McNemarExact] is the exact two-sided McNemar test of paired
//     pass/fail results: only the discordant pairs count.
//   - [PairedPermutation] is the two-sided paired sign-flip permutation
//     test of a mean difference, exact for up to 20 non-zero differences
//     and Monte Carlo beyond, where the observed statistic counts among
//     the resamples so that p is never 0.
package evalstats
