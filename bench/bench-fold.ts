// npm run bench:fold — the fold's cost per scrub step, in Node, on a run of 10,000 events made by a
// skill that loops (bench/inspector-fixture.ts), printed as one JSON line:
//   events, eventsBytes        the run's log as the API would send it (JSON)
//   eventsParseMs              JSON.parse of that log: the floor any client pays to read the events
//   foldMs                     folding the whole log once (a cold cache; then it is only extended)
//   timelineMs, timelineBytes  the run page's timeline view, built and serialised
//   scrubP50Ms, scrubP95Ms     one scrub step: the state view at a random k, built and serialised
//   stepP95Ms                  stepping k → k+1 through the run (the ←/→ keys)
//   stateBytesP95              the size of a state answer
//   itemP95Ms                  one item's detail (a rebuilt context or request), built and serialised
//   serverStateP95Ms           getRunState through lib/server (fold cache, store read of new events)
// --tiny or BENCH_TINY=1: 500 events and a few samples of each (the script works); else BENCH_EVENTS.
// Budget (issue): a scrub step ≤ 50 ms p95 in the browser round trip; this is the server's part.
import { RunFold } from '../lib/kernel/fold';
import { buildTimeline } from '../lib/kernel/timeline';
import { itemView, stateView } from '../lib/kernel/inspect';
import { memoryHost } from '../lib/server/testing';
import { getRunState } from '../lib/server/runs/get-run-state';
import { makeLoopRun } from './inspector-fixture';
import { size, TINY } from './tiny';
import { COMPILED } from './compiled';

const hr = () => Number(process.hrtime.bigint()) / 1e6;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];
const round = (x: number) => Math.round(x * 1000) / 1000;
// a fixed sequence of "random" seqs: the same steps every run
let seed = 42;
const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n) + 1;

const target = TINY ? 500 : Number(process.env.BENCH_EVENTS ?? 10_000);
const SAMPLES = size(500, 20);
const host = memoryHost({ cwd: process.cwd() });
const t0 = hr();
const { runId, events: n } = await makeLoopRun(host, { events: target });
const makeMs = hr() - t0;
const events = await host.store.readEvents(runId);
const wire = JSON.stringify(events.map(({ runId: _r, ...e }) => e));

const parses: number[] = [];
for (let i = 0; i < 5; i++) {
  const t = hr();
  JSON.parse(wire);
  parses.push(hr() - t);
}
const folds: number[] = [];
let fold = new RunFold(runId, events);
for (let i = 0; i < 5; i++) {
  const t = hr();
  fold = new RunFold(runId, events);
  folds.push(hr() - t);
}
const timelines: number[] = [];
let timelineBytes = 0;
for (let i = 0; i < 5; i++) {
  const t = hr();
  timelineBytes = JSON.stringify(buildTimeline(fold)).length;
  timelines.push(hr() - t);
}
const scrub: number[] = [];
const sizes: number[] = [];
for (let i = 0; i < SAMPLES; i++) {
  const k = rand(n);
  const t = hr();
  sizes.push(JSON.stringify(stateView(fold, k)).length);
  scrub.push(hr() - t);
}
const steps: number[] = [];
for (let k = Math.floor(n / 2); k < Math.floor(n / 2) + SAMPLES; k++) {
  const t = hr();
  JSON.stringify(stateView(fold, k));
  steps.push(hr() - t);
}
const items: number[] = [];
for (let i = 0; i < SAMPLES; i++) {
  const k = rand(n);
  const t = hr();
  JSON.stringify(itemView(fold, k));
  items.push(hr() - t);
}
await getRunState(host, runId, { seq: 1 }); // the first request folds the log; the rest read the cache
const server: number[] = [];
for (let i = 0; i < SAMPLES; i++) {
  const t = hr();
  JSON.stringify(await getRunState(host, runId, { seq: rand(n) }));
  server.push(hr() - t);
}
console.log(
  JSON.stringify({
    bench: 'fold',
    tiny: TINY,
    compiled: COMPILED,
    events: n,
    makeRunMs: Math.round(makeMs),
    eventsBytes: wire.length,
    eventsParseMs: round(pct(parses, 50)),
    foldMs: round(pct(folds, 50)),
    timelineMs: round(pct(timelines, 50)),
    timelineBytes,
    scrubP50Ms: round(pct(scrub, 50)),
    scrubP95Ms: round(pct(scrub, 95)),
    stepP95Ms: round(pct(steps, 95)),
    stateBytesP95: pct(sizes, 95),
    itemP95Ms: round(pct(items, 95)),
    serverStateP95Ms: round(pct(server, 95)),
  }),
);
