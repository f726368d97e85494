// The fold against the kernel, on the example bundles run with their model scripts and the real
// sandbox: at every event the fold's resume state equals the snapshot the kernel wrote; after every
// commit its workspace and status equal the store's; every model request, every stage context
// (builtin handlers and module capabilities alike) and every processor input is rebuilt equal to
// what the model, the handler or the step was handed. Every event parses with the events view.
import { createWorkspaceFiles } from '../sandbox/workspace-files';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { compileSkill } from '../skill/compile';
import { createScriptedModel } from '../models/scripted';
import { createCodeSandbox } from '../sandbox';
import { isolationFor } from '../sandbox/isolation';
import { BUILTIN_HANDLERS } from './builtins/handlers';
import { startRun } from './runner';
import { testClock, testIds } from './testing';
import { checkFold, recordingHandlers, recordingModel, recordingSandbox, RecordingStore } from './testing-fold';
import { stateAt } from './fold-state';
import { rebuildStep } from './rebuild';
import { RunEventView } from '../views/events';
import type { StageContext } from './stage-types';

const examples = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../examples');

async function runExample(name: string) {
  const dir = path.join(examples, name);
  const { plan } = compileSkill(readFileSync(path.join(dir, 'skill.md'), 'utf8'), { file: 'skill.md', bundleDir: dir });
  const store = new RecordingStore();
  const model = recordingModel(createScriptedModel(path.join(dir, 'model.yaml')));
  const workDir = mkdtempSync(path.join(tmpdir(), 'sc-fold-'));
  const sandbox = recordingSandbox(createCodeSandbox({ bundleDir: dir, workDir, isolation: isolationFor('auto') }));
  const builtins = plan.stageProgram.filter((s) => s.binding.kind === 'builtin');
  const { handlers, contexts } = recordingHandlers(
    builtins.map((s) => s.name),
    Object.fromEntries(builtins.map((s) => [s.name, BUILTIN_HANDLERS[(s.binding as { name: string }).name]])),
  );
  try {
    const outcome = await startRun(plan, { store, clock: testClock(), ids: testIds(), model, sandbox, handlers, files: createWorkspaceFiles({ root: workDir, readFallback: dir }) }, {
      input: JSON.parse(readFileSync(path.join(dir, 'input.json'), 'utf8')),
      skillText: '',
    });
    const modules = new Set(plan.stageProgram.filter((s) => s.binding.kind === 'module').map((s) => s.name));
    return { outcome, store, model, sandbox, contexts, builtinNames: new Set(builtins.map((s) => s.name)), modules };
  } finally {
    await sandbox.close();
  }
}

for (const name of ['blog_writer', 'code_review', 'summarize', 'research_brief']) {
  test(`${name}: the fold equals what the kernel had, at every event`, async () => {
    const r = await runExample(name);
    assert.equal(r.outcome.status, 'completed', JSON.stringify(r.outcome.error));
    const events = await r.store.readEvents(r.outcome.runId);
    for (const e of events) {
      const { runId: _r, ...wire } = e;
      assert.deepEqual(RunEventView.parse(wire), wire, `event ${e.seq} (${e.type}) parses whole`);
    }
    const { fold, checks } = await checkFold({ store: r.store, runId: r.outcome.runId, requests: r.model.requests, contexts: r.contexts, stagesOf: r.builtinNames });
    assert.ok(checks > events.length, `${checks} checks`);

    // module capabilities: what the sandbox was handed is the rebuilt context
    const moduleEvents = events.filter((e) => e.data.kind === 'stage' && r.modules.has(String(e.data.stage)) && e.data.status === 'ok');
    const capCalls = r.sandbox.calls.filter((c) => (c.input as { rung?: string }).rung !== undefined);
    assert.equal(moduleEvents.length, capCalls.length);
    moduleEvents.forEach((e, i) => assert.deepEqual((rebuildStep(fold, e.seq) as { context: StageContext }).context, capCalls[i].input, String(e.data.position)));

    // code steps run alone were handed the chain value the fold holds before them
    const codeCalls = r.sandbox.calls.filter((c) => (c.input as { rung?: string }).rung === undefined && !c.chain);
    const codeEvents = events.filter((e) => e.data.kind === 'processor' && (e.data.type === 'python' || e.data.type === 'node'));
    for (const call of codeCalls) {
      const e = codeEvents.find((x) => (x.data.definition as { function?: string }).function === call.exportName);
      assert.ok(e, call.exportName);
      assert.deepEqual((rebuildStep(fold, e.seq) as { input: unknown }).input, call.input);
    }

    // the end: the state says what the run returned
    const end = stateAt(fold, fold.lastSeq);
    assert.equal(end.status, 'completed');
    assert.deepEqual(end.output, r.outcome.output);
    assert.equal(end.resume, null);
  });
}

test('research_brief: the state shows the denied call, the cut result and its kept full text', async () => {
  const r = await runExample('research_brief');
  const { fold } = await checkFold({ store: r.store, runId: r.outcome.runId });
  const gather = fold.visitOf('gather')!;
  const postTool = gather.rounds[0].stages.find((s) => s.data.rung === 'post-tool')!;
  const s = stateAt(fold, postTool.seq);
  const tools = s.transcript.filter((m) => m.role === 'tool');
  assert.equal(tools.length, 3);
  assert.match(tools[2].content, /^denied: reading secrets\/keys\.txt is not allowed by path_guard/);
  const cut = tools.find((m) => m.editedBy === 'result_budget');
  assert.ok(cut, 'the budget rewrote a result');
  assert.match(cut.content, /cut to 400 of \d+ characters/);
  assert.ok(s.workspace.some((w) => w.path.startsWith('tool-results/') && String(w.content).startsWith('Background.')));
  // before the post-tool stage, the transcript held the full text
  const before = stateAt(fold, postTool.seq - 1);
  assert.equal(before.transcript.filter((m) => m.role === 'tool').length, 0, 'record_tools happens with post-tool');
});
