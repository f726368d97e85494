// What runs record, byte for byte: the kernel's per-step and per-run shortcuts (definitions,
// hashes and sizes worked out once and kept, rungs with no stage skipped) must never show in the
// log. Two fixture runs — the fold's rich run (stages on every rung, tool rounds, a finish retried,
// a phase visited twice, both chains) and the bench's shape (a model turn, fused pure code steps,
// an effectful one, a workspace/write op) — each recorded twice in one process, the second time
// with every cache warm: both times the same bytes, and the bytes pinned here (as recorded before
// those shortcuts existed). A change that means to alter what is recorded updates the pins.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { deps, inProcessSandbox, phase, plan, playModel, post } from './testing';
import type { StepSpec } from './plan';
import type { CommitUnit, RunRecord } from './ports';
import type { JsonObject } from './json';
import { MemoryStore } from './memory-store';
import { startRun } from './runner';
import { base, richRun, root } from './testing-fold-scenario';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

/** the fixture's temporary folder and the checkout (a plan's bundle folder) by name: the same text in any checkout */
const placeless = (json: string) => json.split(root).join('<root>').split(process.cwd()).join('<cwd>');

/** every event of the run, as JSON */
async function logText(store: MemoryStore, runId: string): Promise<string> {
  return placeless(JSON.stringify(await store.readEvents(runId)));
}

/** a memory store that also keeps, as JSON, every record and unit it was handed (what a store writes) */
class WireStore extends MemoryStore {
  readonly wire: string[] = [];
  override async createRun(run: RunRecord, first: CommitUnit) {
    this.wire.push(JSON.stringify(run), JSON.stringify(first));
    return super.createRun(run, first);
  }
  override async commit(runId: string, unit: CommitUnit) {
    this.wire.push(JSON.stringify(unit));
    return super.commit(runId, unit);
  }
}

/** the bench's step (bench-store.ts): `{ i: i + 1, last: <a 200-byte result> }` */
function step(v: JsonObject): JsonObject {
  const i = (v.i as number | undefined) ?? 0;
  return { i: i + 1, last: { run: String(v.run), step: i, ok: true, tag: `step-${i}`, pad: 'x'.repeat(150) } };
}
const sandbox = inProcessSandbox(step);

const node = (index: number, pure: boolean): StepSpec => ({ ...base, index, type: 'node', module: './s.mjs', modulePath: '/b/s.mjs', function: 'step', timeoutMs: 1000, pure });
const benchPlan = plan({
  phases: { main: phase('main', { prompt: 'Go.' }) },
  effectGrants: new Set(['workspace.write']),
  permittedOps: new Set(['workspace/write']),
  postprocessor: post(
    [node(0, true), node(1, true), node(2, true), node(3, false), { ...base, index: 4, type: 'run_op', op: 'workspace/write', args: { path: 'out.json', content: 'y'.repeat(200) }, into: 'written' }],
    { type: 'object', required: ['last'] },
  ),
});

async function benchRun(): Promise<{ log: string; wire: string }> {
  const store = new WireStore();
  const r = await startRun(benchPlan, deps(playModel([{ finish: { run: 'bench', i: 0 } }]), { store, sandbox }), { input: { n: 1 }, skillText: 'bench' });
  assert.equal(r.status, 'completed', JSON.stringify(r.error));
  return { log: await logText(store, r.runId), wire: placeless(store.wire.join('\n')) };
}

test('the rich run records the same bytes with its caches cold and warm, and the bytes pinned', async () => {
  const first = await richRun();
  const second = await richRun();
  assert.equal(first.outcome.status, 'completed', JSON.stringify(first.outcome.error));
  const [a, b] = [await logText(first.store, first.outcome.runId), await logText(second.store, second.outcome.runId)];
  assert.equal(b, a);
  assert.equal(sha(a), RICH_LOG_SHA256, 'what the rich run records changed');
});

test('the bench-shaped run hands its store the same bytes with its caches cold and warm, and the bytes pinned', async () => {
  const first = await benchRun();
  const second = await benchRun();
  assert.equal(second.wire, first.wire);
  assert.equal(second.log, first.log);
  // the fused steps, the effectful one and the op are all there, each with its own key
  const steps = (JSON.parse(first.log) as { type: string; data: { position?: string; key?: string } }[]).filter((e) => e.type === 'step_completed');
  assert.deepEqual(steps.map((e) => e.data.position), ['main/r1/model', '__post__/0', '__post__/1', '__post__/2', '__post__/3', '__post__/4/op', '__post__/4']);
  assert.equal(new Set(steps.map((e) => e.data.key)).size, steps.length);
  assert.equal(sha(first.log), BENCH_LOG_SHA256, 'what the bench-shaped run records changed');
  assert.equal(sha(first.wire), BENCH_WIRE_SHA256, 'what the bench-shaped run hands its store changed');
});

const RICH_LOG_SHA256 = '77e9158e4c03a1558972cfd16b2c05f2470d081b2c62ce5890c4b792edd5ae02';
const BENCH_LOG_SHA256 = 'a811dc6daed271e65047502439d3d951c09deec00ef50c9302f5584295611bfb';
const BENCH_WIRE_SHA256 = '0d4d952d7188061cd01f6954fa4e0994f2dc87b8b659ffd2662cc2d0dc772818';
