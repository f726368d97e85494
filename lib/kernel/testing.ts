/**
 * Test helpers for the kernel: a deterministic clock and ids, a model that
 * plays given turns and records every request it was sent, a plan builder,
 * and a one-call `runWith`. Used by tests only.
 *
 * Does not: touch the file system or child processes (the sandbox here refuses
 * calls; sandbox tests use the real one).
 */
import type { Json, JsonObject, JsonSchema } from './json';
import type { Plan, PhasePlan, StageSpec, StepSpec } from './plan';
import type { Clock, CodeCall, CodeSandbox, IdSource, ModelPort, ModelRequest, ModelTurn, PrintedOutput, RunEvent, StorePort } from './ports';
import { EVENT } from './events';
import type { KernelDeps } from './context';
import { MemoryStore } from './memory-store';
import { startRun, type RunOutcome } from './runner';
// the host's file ops, so kernel tests exercise the real ones (testing.ts is outside the kernel's import bans)
import { createWorkspaceFiles } from '../sandbox/workspace-files';

/** counts turns of the event loop (a setImmediate each) until stopped: a test's proof that work yielded */
export function turnCounter(): { readonly turns: number; stop: () => void } {
  let turns = 0;
  let isOn = true;
  const next = (): void => {
    if (!isOn) return;
    turns++;
    setImmediate(next);
  };
  setImmediate(next);
  return { get turns() { return turns; }, stop: () => void (isOn = false) };
}

export function testClock(start = 1_700_000_000_000): Clock {
  let t = start;
  return { now: () => (t += 1) };
}

export function testIds(): IdSource {
  let n = 0;
  return { newId: (kind) => `${kind}_${String(++n).padStart(4, '0')}` };
}

export type RecordingModel = ModelPort & { requests: ModelRequest[] };

/** Plays `turns` in order (one per invocation) and records each request. */
export function playModel(turns: Partial<ModelTurn>[]): RecordingModel {
  const requests: ModelRequest[] = [];
  let i = 0;
  return {
    name: 'test',
    requests,
    async invoke(req) {
      requests.push(structuredClone(req));
      const t = turns[i++];
      if (!t) throw new Error(`test model: no turn ${i} (phase ${req.phase}, round ${req.round})`);
      return { text: t.text ?? '', toolCalls: t.toolCalls ?? [], finish: t.finish ?? null };
    },
  };
}

export const noSandbox: CodeSandbox = {
  async call() {
    throw new Error('no sandbox in this test');
  },
  async close() {},
};

/**
 * A sandbox that runs every call's step as `fn`, in process: a fused chain as a worker runs it, each
 * step fed the value with the results so far merged in (or stored under its `into`), answering `{ outputs }`.
 */
export function inProcessSandbox(fn: (input: JsonObject) => Json): CodeSandbox {
  return {
    async call(c) {
      if (!c.chain) return fn(c.input as JsonObject);
      const outputs: Json[] = [];
      let v = c.input as JsonObject;
      for (const s of c.chain) {
        const out = fn(v);
        outputs.push(out);
        v = s.into ? { ...v, [s.into]: out } : { ...v, ...(out as JsonObject) };
      }
      return { outputs };
    },
    async close() {},
  };
}

/**
 * A sandbox that prepares its calls, as the real one does (it refuses `call`): `answer` gives a call's
 * value and what it printed, which the prepared call holds once it returned (PreparedCall.printed).
 * `calls`: every call started, in order.
 */
export function printingSandbox(answer: (c: CodeCall) => { value: unknown; printed?: PrintedOutput }): { sandbox: CodeSandbox; calls: CodeCall[] } {
  const calls: CodeCall[] = [];
  const sandbox: CodeSandbox = {
    async call() {
      throw new Error('a sandbox that prepares is not called');
    },
    prepare(c) {
      const p = {
        printed: undefined as PrintedOutput | undefined,
        async start() {
          calls.push(c);
          await new Promise((r) => setTimeout(r, 1));
          const r = answer(c);
          if (r.printed) p.printed = r.printed;
          return r.value as never;
        },
      };
      return p;
    },
    async close() {},
  };
  return { sandbox, calls };
}

export function phase(name: string, over: Partial<PhasePlan> = {}): PhasePlan {
  return {
    name,
    successors: [],
    isTerminal: true,
    inputSchema: null,
    outputSchema: { type: 'object' },
    tools: [],
    maxRounds: 8,
    prompt: '',
    preprocessor: null,
    ...over,
  };
}

export function stage(name: string, rung: StageSpec['rung'], effects: string[] = [], over: Partial<StageSpec> = {}): StageSpec {
  return { name, capability: name, rung, binding: { kind: 'builtin', name }, effects, with: {}, ...over };
}

export function plan(over: Partial<Plan> & { phases?: Record<string, PhasePlan> } = {}): Plan {
  const phases = over.phases ?? { main: phase('main') };
  const entry = over.entry ?? Object.keys(phases)[0];
  return {
    name: 'test_skill',
    description: '',
    bundleDir: process.cwd(),
    skillHash: 'h',
    entry,
    order: Object.keys(phases),
    system: 'You are a test.',
    llmContract: { type: 'object' } as JsonSchema,
    callerContract: { type: 'object' } as JsonSchema,
    stageProgram: [],
    effectGrants: new Set<string>(),
    permittedOps: new Set<string>(),
    postprocessor: null,
    artifacts: {},
    warnings: [],
    ...over,
    phases,
  };
}

export function post(steps: StepSpec[], outputSchema: JsonSchema = { type: 'object' }) {
  return { steps, outputSchema };
}

/** `fileRoot` (and `fileReadFallback`): the folder file ops act on, through the host's confined file access */
export function deps(
  model: ModelPort,
  { fileRoot, fileReadFallback, ...over }: Partial<KernelDeps> & { fileRoot?: string; fileReadFallback?: string } = {},
): KernelDeps & { store: MemoryStore } {
  const files = fileRoot ? createWorkspaceFiles({ root: fileRoot, readFallback: fileReadFallback }) : undefined;
  return { store: new MemoryStore(), clock: testClock(), ids: testIds(), model, sandbox: noSandbox, ...(files ? { files } : {}), ...over } as KernelDeps & {
    store: MemoryStore;
  };
}

/** Records run `r` in `store` with its `run_started` (seq 1), as a journal of it finds it: for tests of the journal alone. */
export async function recordedRun(store: StorePort): Promise<void> {
  await store.createRun(
    { id: 'r', skillName: 's', skillHash: 'h', skillText: '', bundleDir: '/', skillVersionId: null, input: {}, model: 'm', status: 'running', output: null, error: null, report: null, kind: 'run', parentRunId: null, forkPoint: null, createdAt: 0, updatedAt: 0 },
    { events: [{ runId: 'r', seq: 1, type: EVENT.runStarted, at: 0, data: {} }] },
  );
}

export async function runWith(p: Plan, d: KernelDeps, input: JsonObject = {}): Promise<RunOutcome> {
  return startRun(p, d, { input, skillText: '' });
}

/** A replay (`the_replay`) of run `parentRunId`, recorded in `store` with its `events`, by `sandbox` with no model: its outcome and its events. */
export async function replayOf(p: Plan, store: MemoryStore, parent: { runId: string; events: RunEvent[] }, sandbox: CodeSandbox): Promise<{ out: RunOutcome; events: RunEvent[] }> {
  const out = await startRun(p, deps(playModel([]), { store, sandbox }), {
    input: {},
    skillText: '',
    runId: 'the_replay',
    derivation: { mode: 'replay', parentRunId: parent.runId, events: parent.events },
  });
  return { out, events: await store.readEvents(out.runId) };
}
