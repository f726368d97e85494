// The one decision between PrismaStore.commit's two paths (commit-route.ts): which units go as a
// direct write, which through the commit function, and when the run's claim is handed over.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { commitRoute, endsRun } from './commit-route';
import { artifact, ev, trace } from './testing/fixtures';
import { opCommit } from './wire';

const id = 'run-route';

/** a claim registry that records what it was asked to hand over */
function claims() {
  const asked: string[] = [];
  return { asked, releaseInCommit: (runId: string) => (asked.push(runId), `key-${runId}`) };
}

test('an effectful step (events, artifacts) goes direct on Postgres, its op built only when asked for', () => {
  const c = claims();
  const unit = { events: [ev(id, 2), ev(id, 3)], artifacts: [artifact(id, 'out.json', { k: 1 })] };
  const r = commitRoute(id, unit, { direct: true, releaseInCommit: c.releaseInCommit });
  assert.equal(r.kind, 'direct');
  assert.equal(r.unlock, null);
  assert.equal(typeof r.op, 'function');
  assert.equal((r.op as () => string)(), opCommit(id, unit));
  assert.deepEqual(c.asked, [], 'no claim handed over');
});

test('the same unit on the embedded store goes through the commit function', () => {
  const c = claims();
  const unit = { events: [ev(id, 2)] };
  assert.deepEqual(commitRoute(id, unit, { direct: false, releaseInCommit: c.releaseInCommit }), { kind: 'op', op: opCommit(id, unit), unlock: null });
  assert.deepEqual(c.asked, []);
});

test("a run's end goes direct on Postgres and lets go of the claim in its statement; its op, built if refused, too", () => {
  for (const status of ['completed', 'failed', 'aborted'] as const) {
    const c = claims();
    const unit = { events: [ev(id, 9)], snapshot: 'delete' as const, run: { status, updatedAt: 5 } };
    assert.equal(endsRun(unit), true);
    const r = commitRoute(id, unit, { direct: true, releaseInCommit: c.releaseInCommit });
    assert.equal(r.kind, 'direct');
    assert.equal(r.unlock, `key-${id}`);
    assert.equal(r.kind === 'direct' && r.direct.moves?.unlock, `key-${id}`);
    assert.equal(r.kind === 'direct' && r.direct.moves?.deleteSnapshot, id);
    assert.equal((r.op as () => string)(), opCommit(id, unit, `key-${id}`));
    assert.deepEqual(c.asked, [id]);
  }
});

test("on the embedded store a run's end goes through the commit function and lets go of the claim in it", () => {
  const c = claims();
  const unit = { events: [ev(id, 9)], run: { status: 'completed' as const, updatedAt: 5 } };
  assert.deepEqual(commitRoute(id, unit, { direct: false, releaseInCommit: c.releaseInCommit }), { kind: 'op', op: opCommit(id, unit, `key-${id}`), unlock: `key-${id}` });
  assert.deepEqual(c.asked, [id]);
});

test('a run patch that ends nothing goes direct without handing the claim over', () => {
  const c = claims();
  const unit = { events: [ev(id, 2)], run: { status: 'running' as const, updatedAt: 5 } };
  assert.equal(endsRun(unit), false);
  const r = commitRoute(id, unit, { direct: true, releaseInCommit: c.releaseInCommit });
  assert.equal(r.kind, 'direct');
  assert.equal(r.unlock, null);
  assert.equal(r.kind === 'direct' && r.direct.moves?.unlock, null);
  assert.deepEqual(c.asked, []);
});

test('a claim not held here (nothing to hand over) leaves the write without unlock', () => {
  const unit = { events: [ev(id, 9)], run: { status: 'completed' as const } };
  const r = commitRoute(id, unit, { direct: true, releaseInCommit: () => null });
  assert.equal(r.unlock, null);
  assert.equal(r.kind === 'direct' && r.direct.moves?.unlock, null);
  assert.equal((r.op as () => string)(), opCommit(id, unit));
  assert.deepEqual(commitRoute(id, unit, { direct: false }), { kind: 'op', op: opCommit(id, unit), unlock: null });
});

test("a unit the direct write does not take (traces) goes through the commit function, a run's end with its claim", () => {
  const c = claims();
  const unit = { events: [ev(id, 9)], traces: [trace(id, 9)], run: { status: 'completed' as const } };
  assert.deepEqual(commitRoute(id, unit, { direct: true, releaseInCommit: c.releaseInCommit }), { kind: 'op', op: opCommit(id, unit, `key-${id}`), unlock: `key-${id}` });
});

test("a run's end whose value cannot be written throws before the claim is handed over", () => {
  const c = claims();
  const unit = { events: [ev(id, 9, 'run_completed', { n: 1n } as never)], run: { status: 'completed' as const } };
  assert.throws(() => commitRoute(id, unit, { direct: true, releaseInCommit: c.releaseInCommit }), TypeError);
  assert.deepEqual(c.asked, [], 'the claim stays held: no statement will carry its unlock');
});
