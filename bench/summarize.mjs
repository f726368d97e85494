#!/usr/bin/env node
// The peers' median table (bench-peers/summarize.mjs) over our lines too: our
// two kinds of step get their own rows (`stagecraft/effectful`, `stagecraft/pure`),
// then the ratios the issue asks for, from the same run.
import { existsSync, readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

const rows = process.argv.slice(2).flatMap((f) => readFileSync(f, 'utf8').split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l)));
// bench:store names its harness per kind; lines from before it did say `stagecraft` and `kind`
const relabeled = rows.map((r) => (r.harness === 'stagecraft' ? { ...r, harness: `stagecraft/${r.kind}` } : r));
const tmp = path.join(mkdtempSync(path.join(tmpdir(), 'sc-sum-')), 'all.jsonl');
writeFileSync(tmp, relabeled.map((r) => JSON.stringify(r)).join('\n') + '\n');
const peers = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../.bench-peers/summarize.mjs');
if (existsSync(peers)) {
  const s = spawnSync(process.execPath, [peers, tmp], { encoding: 'utf8' });
  process.stdout.write(s.stdout + s.stderr);
} else console.log('(no .bench-peers/summarize.mjs: the median table is left out)');

const median = (xs) => {
  const s2 = xs.filter(Number.isFinite).sort((a, b) => a - b);
  return s2.length ? (s2.length % 2 ? s2[s2.length >> 1] : (s2[s2.length / 2 - 1] + s2[s2.length / 2]) / 2) : NaN;
};
const sps = (h, mode, extra = () => true) => median(relabeled.filter((r) => r.harness === h && r.mode === mode && extra(r)).map((r) => r.stepsPerSec));
const ratios = {};
// effectful+op: the in-process workspace/write op instead of a node code step (bench-store.ts --step op)
for (const kind of ['effectful', 'pure', 'effectful+op']) {
  ratios[`${kind} single vs dbos`] = +(sps(`stagecraft/${kind}`, 'single') / sps('dbos', 'single')).toFixed(2);
  ratios[`${kind} many c=8 vs dbos`] = +(sps(`stagecraft/${kind}`, 'many', (r) => r.concurrency === 8) / sps('dbos', 'many', (r) => r.concurrency === 8)).toFixed(2);
  ratios[`${kind} many c=1 vs dbos`] = +(sps(`stagecraft/${kind}`, 'many', (r) => r.concurrency === 1) / sps('dbos', 'many', (r) => r.concurrency === 1)).toFixed(2);
}
// the effectful node step against its own floor (bench-store.ts --mode floor): ms/step ÷ the floor's ms/step
ratios['effectful single vs its floor'] = +(sps('floor/node-step', 'single') / sps('stagecraft/effectful', 'single')).toFixed(2);
for (const [k, v] of Object.entries(ratios)) if (!Number.isFinite(v)) delete ratios[k]; // a config this run did not measure
console.log('\nratios (median steps/s, same run): ' + JSON.stringify(ratios));

// Where our step's time went (median per config): the store round trips a step waits on, the code
// calls, and the rest: the kernel's own work. At concurrency > 1 the waits of different runs
// overlap, so there is no rest to derive.
const ours = relabeled.filter((r) => r.harness.startsWith('stagecraft/') && r.mode !== 'crash' && Number.isFinite(r.commitRttMs));
const configs = [...new Set(ours.map((r) => `${r.harness} ${r.mode} ${r.workflows}x${r.steps} c=${r.concurrency}`))];
if (configs.length) {
  console.log('\n| config | ms/step | commits/step × RTT ms | code calls/step × RTT ms | rest ms/step |');
  console.log('|---|---|---|---|---|');
  for (const c of configs) {
    const rs = ours.filter((r) => `${r.harness} ${r.mode} ${r.workflows}x${r.steps} c=${r.concurrency}` === c);
    const m = (k) => median(rs.map((r) => r[k]));
    const commits = m('commitsPerStep') * m('commitRttMs');
    const calls = m('codeCallsPerStep') * (m('codeCallRttMs') || 0);
    const f = (x) => x.toFixed(3);
    console.log(`| ${c} | ${f(m('msPerStep'))} | ${m('commitsPerStep')} × ${f(m('commitRttMs'))} | ${m('codeCallsPerStep')} × ${f(m('codeCallRttMs') || 0)} | ${rs[0].concurrency === 1 ? f(m('msPerStep') - commits - calls) : '—'} |`);
  }
}

// A run's fixed cost (runs one at a time, c=1): per run, each kind of round trip (bench-store.ts
// `roundTrips`: create with its claim, finish, steps, end), the code calls, and the rest (the
// kernel's own work); the parts past the steps themselves are what a run costs beyond them.
const fixed = ours.filter((r) => r.mode === 'many' && r.concurrency === 1 && r.roundTrips);
if (fixed.length) {
  console.log('\n| config, per run (ms) | wall | round trips: kind n × ms | code calls n × ms | rest |');
  console.log('|---|---|---|---|---|');
  for (const c of [...new Set(fixed.map((r) => `${r.harness} ${r.workflows}x${r.steps}`))]) {
    const rs = fixed.filter((r) => `${r.harness} ${r.workflows}x${r.steps}` === c);
    const m = (f) => median(rs.map(f));
    const wall = m((r) => r.wallMs / r.workflows);
    // the claim travels in the create's statement, in parallel: it adds no time of its own
    const kinds = [...new Set(rs.flatMap((r) => Object.keys(r.roundTrips)))].filter((k) => k !== 'claim');
    const parts = kinds.map((k) => [k, m((r) => r.roundTrips[k]?.perRun ?? 0), m((r) => r.roundTrips[k]?.ms ?? 0)]);
    const trips = parts.reduce((t, [, n, ms]) => t + n * ms, 0);
    const calls = m((r) => r.codeCallsPerStep * r.steps);
    const callMs = m((r) => r.codeCallRttMs || 0);
    const f = (x) => x.toFixed(1);
    console.log(`| ${c} | ${f(wall)} | ${parts.map(([k, n, ms]) => `${k} ${n} × ${f(ms)}`).join(', ')} | ${calls} × ${f(callMs)} | ${f(wall - trips - calls * callMs)} |`);
  }
}

// The many runs at c=8: what the commit lanes sent (bench-store.ts `statementsPerRun`, `opsPerStatement`,
// `statementMs`, and `laneBusy`: the share of the wall time a statement was in flight — near 1, the
// serial lane is what the runs wait for), and the CPU a run costs — this process, the database and the
// sandbox workers — beside DBOS's (its process and the database). On a saturated machine the wall
// ratio follows the CPU ratio. pgCpuMs counts every postgres process of the machine: others' too.
const many8 = relabeled.filter((r) => r.mode === 'many' && r.concurrency === 8 && (r.harness === 'dbos' || r.harness.startsWith('stagecraft/')));
if (many8.some((r) => r.statementsPerRun !== undefined)) {
  console.log('\n| many c=8, per run | ms (wall) | statements | ops/statement | statement ms | lane busy | CPU ms: node + pg + workers |');
  console.log('|---|---|---|---|---|---|---|');
  for (const h of [...new Set(many8.map((r) => r.harness))]) {
    const rs = many8.filter((r) => r.harness === h);
    const m = (f) => median(rs.map(f));
    const per = (k) => m((r) => (r[k] ?? 0) / r.workflows);
    const f = (x, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : '—');
    const cpu = per('nodeCpuMs') + per('pgCpuMs') + per('workerCpuMs');
    console.log(`| ${h} | ${f(per('wallMs'))} | ${f(m((r) => r.statementsPerRun), 2)} | ${f(m((r) => r.opsPerStatement), 2)} | ${f(m((r) => r.statementMs))} | ${f(m((r) => r.laneBusy), 2)} | ${f(cpu)} = ${f(per('nodeCpuMs'))} + ${f(per('pgCpuMs'))} + ${f(per('workerCpuMs'))} |`);
  }
}

// Crash resume, ours beside DBOS: restart → first new step (median), and committed steps re-run (all reps).
const crashOf = (h) => relabeled.filter((r) => r.mode === 'crash' && r.harness === h);
const crash = {};
for (const h of ['stagecraft/effectful', 'dbos']) {
  const rs = crashOf(h);
  if (!rs.length) continue;
  crash[h] = {
    runs: rs.length,
    ok: rs.filter((r) => r.ok).length,
    firstNewStepMs: median(rs.map((r) => r.firstExecAfterResumeMs)),
    reRunCommitted: rs.reduce((n, r) => n + (r.reExecutedCheckpointedSteps?.length ?? 0), 0),
  };
}
if (crash.dbos && crash['stagecraft/effectful']) crash.resumeVsDbos = +(crash['stagecraft/effectful'].firstNewStepMs / crash.dbos.firstNewStepMs).toFixed(2);

// the issue's targets (ratios to DBOS ≥, to the floor and DBOS's resume ≤), each met or not in this run
const targets = {
  'effectful+op single vs dbos': ['>=', 3],
  'effectful+op many c=8 vs dbos': ['>=', 3.5],
  'effectful single vs dbos': ['>=', 2.5],
  'effectful many c=8 vs dbos': ['>=', 3],
  'pure single vs dbos': ['>=', 20],
  'pure many c=8 vs dbos': ['>=', 6],
  'effectful single vs its floor': ['<=', 1.2],
};
const met = {};
for (const [k, [op, t]] of Object.entries(targets)) if (k in ratios) met[k] = op === '>=' ? ratios[k] >= t : ratios[k] <= t;
if ('resumeVsDbos' in crash) met['crash resume vs dbos'] = crash.resumeVsDbos < 1 && crash['stagecraft/effectful'].reRunCommitted === 0;
console.log('\n' + JSON.stringify({ bench: 'compare', reps: Math.max(0, ...Object.values(crash).map((c) => c.runs ?? 0)), sandbox: [...new Set(relabeled.filter((r) => r.sandbox).map((r) => r.sandbox))], ratios, crash, met }));
