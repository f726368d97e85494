// A step's commit sent ahead (kernel journal.ts sendAhead) on the real Postgres store: the commit of an
// effectful step is on the wire (its statement handed to the connection) before the next step's memo
// lookup reads that step's input, and that step's call to the sandbox is made only after the commit
// has answered. The commit lanes send a batch a microtask after its first operation; the kernel lets
// those microtasks run before it works on, so the lookup overlaps the commit's round trip.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import pg from 'pg';
import type { CodeSandbox } from '../kernel/ports';
import type { Json } from '../kernel/json';
import type { StepSpec } from '../kernel/plan';
import { startRun } from '../kernel/runner';
import { deps, plan, playModel, post } from '../kernel/testing';
import { openStore, type OpenedStore } from './open-store';
import { createTestDatabase, type TestDatabase } from './testing/pg-test-db';

let database: TestDatabase | null = null;
let store: OpenedStore | null = null;

after(async () => {
  await store?.close();
  await database?.drop();
});

const STEPS = 4;
const code = (index: number): StepSpec =>
  ({ onError: 'fail', emptyValue: null, line: 1, index, type: 'node', modulePath: '/bundle/x.mjs', module: './x.mjs', function: 'effect', timeoutMs: 1000, pure: false, into: `v${index}` }) as StepSpec;

describe('an effectful step\'s commit sent ahead, on Postgres', () => {
  it('is on the wire before the next step reads its input for the memo key, and answered before that step\'s call', async () => {
    database = await createTestDatabase();
    store = await openStore({ databaseUrl: database.url });
    const log: string[] = [];
    // each output carries an object whose keys are listed only by who walks it: the memo key's canonical JSON, the
    // size checks and the wire's JSON — the step's input holds every earlier output, so the next lookup walks them all
    const watched = (i: number): Json =>
      new Proxy({ n: i } as Record<string, Json>, {
        ownKeys(target) {
          log.push('keys');
          return Reflect.ownKeys(target);
        },
      }) as Json;
    let calls = 0;
    const sandbox: CodeSandbox = {
      async call() {
        log.push('call');
        return { seen: watched(calls++) };
      },
      async close() {},
    };
    const query = pg.Client.prototype.query;
    const commits = new Set<unknown>();
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const q = args[0] as { text?: string; callback?: (...a: unknown[]) => void } | string;
      const text = typeof q === 'string' ? q : (q?.text ?? '');
      // the lanes' direct writes of a commit: its events inserted
      if (/INSERT INTO "?events"?/i.test(text)) {
        log.push('commit sent');
        commits.add(q);
        const cb = typeof q === 'object' ? q.callback : undefined;
        if (cb && typeof q === 'object') q.callback = (...a: unknown[]) => (log.push('commit answered'), cb(...a));
      }
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof pg.Client.prototype.query;
    try {
      const out = await startRun(plan({ postprocessor: post(Array.from({ length: STEPS }, (_, i) => code(i))) }), deps(playModel([{ finish: {} }]), { store, sandbox }), { input: {}, skillText: '', runId: 'run_send_ahead' });
      assert.equal(out.status, 'completed', JSON.stringify(out));
    } finally {
      pg.Client.prototype.query = query;
    }
    assert.ok(commits.size >= STEPS, `the commits went as direct writes (${commits.size}): ${log.join(', ')}`);
    // from the second step on: the previous step's commit sent, then its input walked for the lookup, then its answer, then the call
    const calls_ = log.flatMap((e, i) => (e === 'call' ? [i] : [])).slice(1);
    assert.equal(calls_.length, STEPS - 1);
    for (const at of calls_) {
      const before = log.slice(0, at);
      const sent = before.lastIndexOf('commit sent');
      const answered = before.lastIndexOf('commit answered');
      assert.ok(sent >= 0 && answered > sent, `the call at ${at} came after its commit was answered: ${log.join(', ')}`);
      assert.ok(log.slice(sent + 1, answered).includes('keys'), `the step's input was walked for its memo key while its commit travelled: ${log.slice(sent - 3, at + 1).join(', ')}`);
    }
  });
});
