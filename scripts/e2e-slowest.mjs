/**
 * Where the browser stage's time went (scripts/test.mjs): the specs that took longest, from the
 * report Playwright's json reporter wrote. The stage is the suite's largest and is bound by the
 * machine's two cores (two browsers at once; a third made each test 64% slower), so it is cut by
 * doing less in the specs that take most: this names them after every run.
 */

/** each spec file of a Playwright json report with the time its tests took, summed over their attempts: longest first */
export function specTimes(report) {
  const bySpec = new Map();
  const walk = (suite, file) => {
    for (const child of suite.suites ?? []) walk(child, file ?? child.file);
    for (const spec of suite.specs ?? []) {
      const f = spec.file ?? file;
      for (const t of spec.tests ?? []) for (const r of t.results ?? []) bySpec.set(f, (bySpec.get(f) ?? 0) + (r.duration ?? 0));
    }
  };
  for (const s of report.suites ?? []) walk(s, s.file);
  return [...bySpec].map(([file, ms]) => ({ file, ms })).sort((a, b) => b.ms - a.ms);
}

/** the line the stage prints: how long the specs took in all, then the `n` longest, in seconds */
export function slowestLine(reports, n = 10) {
  const all = reports.flatMap(specTimes).sort((a, b) => b.ms - a.ms);
  const s = (ms) => `${Math.round(ms / 1000)} s`;
  const total = all.reduce((sum, x) => sum + x.ms, 0);
  return `${all.length} specs took ${s(total)} in all; the longest: ${all.slice(0, n).map((x) => `${x.file} ${s(x.ms)}`).join(', ')}`;
}
