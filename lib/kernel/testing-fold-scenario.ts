/**
 * A run that uses every rule the fold reads, for the fold's and the inspector's tests: a tool batch
 * with a denial, an args rewrite, a call the gate refuses and one that errors, a trimmed result;
 * a round that neither calls nor finishes; a finish rejected then accepted; a phase that loops back
 * to itself; pre- and postprocessor chains with run_op, nested iterates, skip, empty and fail; a
 * refused stage. Used by tests only.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deps, phase, plan, post, stage } from './testing';
import { startRun } from './runner';
import type { Plan, StepSpec } from './plan';
import type { CodeSandbox, ModelPort, ModelRequest, ModelTurn } from './ports';
import type { StageHandler } from './stage-types';
import { recordingHandlers, recordingModel, RecordingStore } from './testing-fold';

export const root = mkdtempSync(path.join(tmpdir(), 'sc-fold-'));
writeFileSync(path.join(root, 'notes.txt'), 'The pilot ran in 12 schools. '.repeat(4));
/** a result too large to send inline (values.ts) */
export const BIG_TEXT = 'Appendix. '.repeat(2000);
writeFileSync(path.join(root, 'appendix.txt'), BIG_TEXT);
export const base = { onError: 'fail' as const, emptyValue: null, line: 7 };

export const TURNS: Record<string, Partial<ModelTurn>[]> = {
  gather: [
    {
      text: 'Reading.',
      toolCalls: [
        { id: 'c0', op: 'file/read', args: { path: 'notes.txt' } },
        { id: 'c1', op: 'file/read', args: { path: 'secret/keys.txt' } },
        { id: 'c2', op: 'workspace/write', args: { path: 'draft.txt', content: 'first' } },
        { id: 'c3', op: 'http/get', args: { url: 'http://example.test' } },
        { id: 'c4', op: 'file/read', args: { path: 'missing.txt' } },
        { id: 'c5', op: 'file/read', args: { path: 'appendix.txt' } },
      ],
      usage: { inputTokens: 120, outputTokens: 30 },
    },
    { text: 'Thinking it over.' },
    { finish: { next: 'gather' } },
    { finish: { facts: ['12 schools'], next: 'gather' } },
  ],
  'gather#2': [{ finish: { facts: ['again'], next: 'write' } }],
  write: [{ finish: { title: 'Pilot', body: 'Write to dana@example.org' } }],
};

/** turns by (phase, visit, round): the same answer whichever process asks */
export function model(): ModelPort {
  return {
    name: 'fold-test',
    async invoke(req: ModelRequest) {
      const key = req.visit && req.visit > 1 ? `${req.phase}#${req.visit}` : req.phase;
      const t = TURNS[key]?.[req.round - 1];
      if (!t) throw new Error(`no turn for ${key} r${req.round}`);
      return { text: t.text ?? '', toolCalls: t.toolCalls ?? [], finish: t.finish ?? null, ...(t.usage ? { usage: t.usage } : {}) };
    },
  };
}

export const sandbox: CodeSandbox = {
  async call(c) {
    const v = c.input as Record<string, unknown>;
    if (c.exportName === 'enrich') return { words: String(v.body ?? '').split(' ').length };
    if (c.exportName === 'explode') throw new Error('KeyError: missing');
    throw new Error(`no function ${c.exportName}`);
  },
  async close() {},
};

export const STAGE_RUN: Record<string, StageHandler> = {
  style: (c) => ({ system: `House style (round ${c.round}).`, messages: [{ role: 'user', content: 'Be brief.' }] }),
  facts: (c) => (c.turn?.finish ? { annotations: [{ kind: 'note', message: `${c.evidence?.length} outcomes`, severity: 'info' }] } : {}),
  guard: (c) => ({ deny: { 1: 'secrets are off limits' }, args: { 2: { path: 'draft-2.txt', content: String(c.requests?.[2]?.args.content ?? '') } } }),
  budget: (c) => {
    const o = c.outcomes?.[0];
    return o && o.content.length > 40 ? { outcomes: { 0: { content: `${o.content.slice(0, 40)}…` } }, workspace: { [`tool-results/${o.callId}.txt`]: o.content } } : {};
  },
  redact: (c) => ({ artifact: { body: String(c.artifact?.body ?? '').replace(/\S+@\S+/, '[redacted]') } }),
};

export function richPlan(postSteps?: StepSpec[]): Plan {
  const gatherOut = {
    type: 'object',
    properties: { facts: { type: 'array', minItems: 1 }, next: { enum: ['gather', 'write'] } },
    required: ['facts', 'next'],
  };
  const pre: StepSpec[] = [
    { ...base, index: 0, type: 'validate', schema: { type: 'object' } },
    { ...base, index: 1, type: 'run_op', op: 'file/read', args: { path: '${file}' }, into: 'note', onError: 'skip' },
    {
      ...base,
      index: 2,
      type: 'iterate',
      over: 'items',
      into: 'written',
      onError: 'skip',
      steps: [
        { ...base, index: 0, type: 'run_op', op: 'workspace/write', args: { path: 'item-${n}.txt', content: 'v${n}' }, into: 'w' },
        { ...base, index: 1, type: 'iterate', over: 'subs', into: 'checked', steps: [{ ...base, index: 0, type: 'validate', schema: { type: 'object' } }] },
      ],
    },
    { ...base, index: 3, type: 'run_op', op: 'file/read', args: { path: 'nowhere.txt' }, into: 'absent', onError: 'empty', emptyValue: '' },
  ];
  return plan({
    entry: 'gather',
    phases: {
      gather: phase('gather', { tools: ['file/read', 'workspace/write'], successors: ['gather', 'write'], isTerminal: false, outputSchema: gatherOut, preprocessor: { steps: pre, outputSchema: { type: 'object' } } }),
      write: phase('write', { prompt: 'Write it up.' }),
    },
    stageProgram: [
      stage('style', 'prompt-assembly', ['prompt.write']),
      stage('facts', 'post-model'),
      stage('guard', 'pre-tool', ['tools.gate']),
      stage('sneaky', 'pre-tool', ['net']),
      stage('budget', 'post-tool', ['transcript.write']),
      stage('redact', 'finalize', ['artifact.write']),
    ],
    effectGrants: new Set(['fs.read', 'workspace.write', 'prompt.write', 'tools.gate', 'transcript.write', 'artifact.write']),
    permittedOps: new Set(['file/read', 'workspace/write', 'http/get']),
    postprocessor: post(
      postSteps ?? [
        { ...base, index: 0, type: 'node', module: './x.mjs', modulePath: '/x.mjs', function: 'enrich', timeoutMs: 1000, pure: false },
        { ...base, index: 1, type: 'validate', schema: { type: 'object', required: ['nope'] }, onError: 'skip' },
        { ...base, index: 2, type: 'node', module: './x.mjs', modulePath: '/x.mjs', function: 'explode', timeoutMs: 1000, pure: false, into: 'extra', onError: 'empty', emptyValue: {} },
      ],
    ),
  });
}

export const INPUT = { file: 'notes.txt', items: [{ n: 1, subs: [{ a: 1 }, { a: 2 }] }, { n: 2, subs: [] }] };

export async function richRun(p = richPlan()) {
  const store = new RecordingStore();
  const m = recordingModel(model());
  const { handlers, contexts } = recordingHandlers(Object.keys(STAGE_RUN), STAGE_RUN);
  const outcome = await startRun(p, deps(m, { store, handlers, sandbox, fileRoot: root }), { input: INPUT, skillText: '' });
  return { outcome, store, requests: m.requests, contexts };
}

