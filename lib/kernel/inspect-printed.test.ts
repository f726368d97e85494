// The detail of a code step that printed: its stdout and stderr as the run page shows them (bundle
// paths relative, as its error's stderr; the last newline off), null for a stream it left empty or a
// step that printed nothing; the view parses with its zod view.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RunFold } from './fold';
import { itemView } from './inspect';
import { EVENT } from './events';
import type { CodeSandbox, PrintedOutput } from './ports';
import type { StepSpec } from './plan';
import { deps, playModel, plan, post, printingSandbox, stage } from './testing';
import { startRun } from './runner';
import { RunItemView } from '../views/inspector';

const code = (index: number, fn: string): StepSpec =>
  ({ onError: 'fail', emptyValue: null, line: 3, index, type: 'python', modulePath: '/bundle/x.py', module: './x.py', function: fn, timeoutMs: 1000, pure: false }) as StepSpec;

test("a code step's detail holds what it printed, bundle paths relative; a quiet step's holds null", async () => {
  const bundleDir = '/srv/stagecraft/bundles/ab12';
  const sandbox: CodeSandbox = {
    async call() {
      throw new Error('prepared only');
    },
    prepare(c) {
      const p: { start(): Promise<never>; printed?: PrintedOutput } = {
        async start() {
          if (c.exportName === 'loud') p.printed = { stdout: `reading ${bundleDir}/data/rows.csv\ndone\n`, stderr: '' };
          return { [c.exportName]: true } as never;
        },
      };
      return p;
    },
    async close() {},
  };
  const d = deps(playModel([{ finish: {} }]), { sandbox });
  const out = await startRun(plan({ bundleDir, postprocessor: post([code(0, 'loud'), code(1, 'quiet')]) }), d, { input: {}, skillText: '' });
  assert.equal(out.status, 'completed', JSON.stringify(out.error));
  const events = await d.store.readEvents(out.runId);
  const fold = new RunFold(out.runId, events);
  const [loud, quiet] = events.filter((e) => e.type === EVENT.stepCompleted && e.data.kind === 'processor').map((e) => RunItemView.parse(itemView(fold, e.seq)));
  assert.ok(loud.kind === 'processor' && quiet.kind === 'processor');
  assert.equal(loud.stdout, 'reading data/rows.csv\ndone');
  assert.equal(loud.stderr, null);
  assert.equal(quiet.stdout, null);
  assert.equal(quiet.stderr, null);
});

test("a user capability's stage detail holds what it printed, as a code step's; a quiet one's holds null", async () => {
  const bundleDir = '/srv/stagecraft/bundles/cd34';
  const cap = (name: string) => stage(name, 'post-model', [], { binding: { kind: 'module', module: './caps.mjs', modulePath: `${bundleDir}/caps.mjs`, exportName: name } });
  const { sandbox } = printingSandbox((c) => (c.exportName === 'loud' ? { value: null, printed: { stdout: '', stderr: `checked ${bundleDir}/caps.mjs\n` } } : { value: null }));
  const d = deps(playModel([{ finish: {} }]), { sandbox });
  const out = await startRun(plan({ bundleDir, stageProgram: [cap('loud'), cap('quiet')] }), d, { input: {}, skillText: '' });
  assert.equal(out.status, 'completed', JSON.stringify(out.error));
  const events = await d.store.readEvents(out.runId);
  const fold = new RunFold(out.runId, events);
  const [loud, quiet] = events.filter((e) => e.type === EVENT.stepCompleted && e.data.kind === 'stage').map((e) => RunItemView.parse(itemView(fold, e.seq)));
  assert.ok(loud.kind === 'stage' && quiet.kind === 'stage');
  assert.equal(loud.stdout, null);
  assert.equal(loud.stderr, 'checked caps.mjs');
  assert.equal(quiet.stdout, null);
  assert.equal(quiet.stderr, null);
});
