// `stagecraft runs` that lists nothing says so (on stderr, as its "more:" line: stdout stays one
// line per run) — before, a store with no runs, or filters nothing matched, printed nothing at all.
// And its time range: --since after --until is a usage error; a date alone is that whole day, a
// year-month that whole month, a year that whole year.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { runCli, tempCliEnv } from './testing/spawn-cli';

const { env, cleanup } = tempCliEnv('sc-runs-empty-');
after(cleanup);

test('runs with nothing to list says so, and what it looked for', async () => {
  const none = await runCli(['runs'], { env });
  assert.equal(none.code, 0, none.err);
  assert.equal(none.out, '');
  assert.match(none.err, /^no runs yet\b/m);
  const filtered = await runCli(['runs', '--status', 'queued', '--search', 'Zoë'], { env });
  assert.equal(filtered.code, 0, filtered.err);
  assert.equal(filtered.out, '');
  assert.match(filtered.err, /^no runs match these filters\b/m);
  assert.doesNotMatch(filtered.err, /no skill is named/);
  const typo = await runCli(['runs', '--skill', 'sumarize'], { env });
  assert.equal(typo.code, 0, typo.err);
  assert.match(typo.err, /^no runs match these filters\nno skill is named sumarize now: check its spelling \(names are exact\), or it was deleted and none of its runs match$/m);
  const json = await runCli(['runs', '--json'], { env });
  assert.deepEqual(JSON.parse(json.out).runs, []);
  assert.doesNotMatch(json.err, /no runs/);
});

// `runs --since 2030-01-01 --until 2020-01-01` answered "no runs match these filters" (exit 0): a range
// that ends before it starts is the flags' mistake
test('a --since after --until is a usage error naming both, not an empty list', async () => {
  const r = await runCli(['runs', '--since', '2030-01-01', '--until', '2020-01-01'], { env });
  assert.equal(r.code, 2, r.out + r.err);
  assert.match(r.err, /^stagecraft: --since 2030-01-01 is after --until 2020-01-01: no run can match\. Swap them/m);
  assert.equal(r.out, '');
  const ok = await runCli(['runs', '--since', '2020-01-01', '--until', '2030-01-01'], { env });
  assert.equal(ok.code, 0, ok.err);
});

// `runs --since T --until T` (one exact instant for both) answered "no runs match these filters" (exit 0),
// where the runs page refuses the same range: --until is exclusive, so from an instant to itself is empty
test('the same exact time for --since and --until is a usage error (an empty range), as the page says', async () => {
  for (const t of ['2026-12-04T10:00:00Z', '1764842400000']) {
    const r = await runCli(['runs', '--since', t, '--until', t], { env });
    assert.equal(r.code, 2, t + r.out + r.err);
    assert.match(r.err, new RegExp(`^stagecraft: --since ${t} is the same time as --until ${t}: the range is empty`, 'm'));
    assert.match(r.err, /Give a later --until/);
    assert.equal(r.out, '');
  }
  // a date-time and its epoch ms are one instant
  const mixed = await runCli(['runs', '--since', '2026-12-04T10:00:00Z', '--until', String(Date.parse('2026-12-04T10:00:00Z'))], { env });
  assert.equal(mixed.code, 2, mixed.err);
  // a date alone for both is that whole day: still accepted
  const day = await runCli(['runs', '--since', '2026-12-04', '--until', '2026-12-04'], { env });
  assert.equal(day.code, 0, day.err);
  // one millisecond apart: a range of one instant
  const one = await runCli(['runs', '--since', '1764842400000', '--until', '1764842400001'], { env });
  assert.equal(one.code, 0, one.err);
});

// `runs --until 2026-12-04` ended at that day's first instant: the runs of the 4th were left out (and
// `--until 2026-12` at the 1st's: the month's)
test('a date alone as --until is that whole day, a year-month that whole month, a year that whole year; a time is exact; the same day for both flags is that day', async () => {
  const ran = await runCli(['run', 'examples/summarize', '--input', 'examples/summarize/input.json', '--json'], { env });
  assert.equal(ran.code, 0, ran.err);
  const { runId } = JSON.parse(ran.out) as { runId: string };
  const ids = async (...flags: string[]) => {
    const r = await runCli(['runs', '--json', ...flags], { env });
    assert.equal(r.code, 0, flags.join(' ') + r.err);
    return (JSON.parse(r.out) as { runs: { runId: string; createdAt: number }[] }).runs;
  };
  const [{ createdAt }] = (await ids()).filter((r) => r.runId === runId);
  const day = new Date(createdAt).toISOString().slice(0, 10);
  const next = new Date(Date.parse(day) + 86_400_000).toISOString().slice(0, 10);
  assert.deepEqual((await ids('--until', day)).map((r) => r.runId), [runId], `--until ${day}`);
  assert.deepEqual((await ids('--since', day, '--until', day)).map((r) => r.runId), [runId], 'the same day for both');
  // a time of day, or epoch ms, is exact: up to (not at) that instant
  assert.deepEqual(await ids('--until', new Date(createdAt).toISOString()), []);
  assert.deepEqual(await ids('--until', String(createdAt)), []);
  assert.deepEqual((await ids('--until', String(createdAt + 1))).map((r) => r.runId), [runId]);
  // a year-month is that whole month: as --until up to the next month, as --since from its 1st
  const month = day.slice(0, 7);
  const nextMonth = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 1)).toISOString().slice(0, 7);
  assert.deepEqual((await ids('--until', month)).map((r) => r.runId), [runId], `--until ${month}`);
  assert.deepEqual((await ids('--since', month)).map((r) => r.runId), [runId], `--since ${month}`);
  assert.deepEqual((await ids('--since', month, '--until', month)).map((r) => r.runId), [runId], 'the same month for both');
  assert.deepEqual(await ids('--since', nextMonth), []);
  const afterMonth = await runCli(['runs', '--since', nextMonth, '--until', month], { env });
  assert.equal(afterMonth.code, 2, afterMonth.err);
  assert.match(afterMonth.err, new RegExp(`^stagecraft: --since ${nextMonth} is after --until ${month}: no run can match`, 'm'));
  // a year alone is that whole year (it was epoch ms: 2 s after 1970, so --until YEAR listed nothing and
  // --since YEAR everything): as --until up to the next year, as --since from January 1st
  const year = day.slice(0, 4);
  const nextYear = String(Number(year) + 1);
  assert.deepEqual((await ids('--until', year)).map((r) => r.runId), [runId], `--until ${year}`);
  assert.deepEqual((await ids('--since', year, '--until', year)).map((r) => r.runId), [runId], 'the same year for both');
  assert.deepEqual(await ids('--since', nextYear), [], `--since ${nextYear}`);
  assert.deepEqual(await ids('--until', String(Number(year) - 1)), [], 'the year before as --until');
  const afterYear = await runCli(['runs', '--since', nextYear, '--until', year], { env });
  assert.equal(afterYear.code, 2, afterYear.err);
  assert.match(afterYear.err, new RegExp(`^stagecraft: --since ${nextYear} is after --until ${year}: no run can match`, 'm'));
  const bad = await runCli(['runs', '--until', 'soon'], { env });
  assert.equal(bad.code, 2, bad.err);
  assert.match(bad.err, /--until "soon": not a time — give a date \(2026-12-01\) or an ISO date-time .*a year \(2026, four digits\) or epoch milliseconds \(any other whole number\), from 1970 on/);
  // the day after --until's day as --since: after the whole of it
  const after = await runCli(['runs', '--since', next, '--until', day], { env });
  assert.equal(after.code, 2, after.err);
  assert.match(after.err, new RegExp(`^stagecraft: --since ${next} is after --until ${day}: no run can match`, 'm'));
});
