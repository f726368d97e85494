/**
 * A postprocessor run again over a recorded run's finish artifact — what a
 * regression over history does for each past run: the recorded run is
 * resumed, on a throwaway in-memory store, at the postprocessor's start
 * (`__post__`, with its workspace as recorded), as a replay of itself
 * (recording.ts), so the given plan's steps really run while world reads
 * are answered from the recording. No model is asked: a postprocessor has
 * no model steps.
 *
 * Owns: that one execution. Does not: pick runs, compare outcomes
 * (compare.ts), or keep anything: the store goes when the call returns.
 */
import type { Plan } from './plan';
import { POST_PHASE } from './plan';
import type { CodeSandbox, RunEvent, RunRecord, WorkspaceArtifact } from './ports';
import type { KernelDeps } from './context';
import { EVENT } from './events';
import { MemoryStore } from './memory-store';
import { FINISH_ARTIFACT_PATH, resumeRun, type RunOutcome } from './runner';
import { NO_MODEL } from './fork-probe';

export async function replayPostprocessor(
  plan: Plan,
  deps: Pick<KernelDeps, 'clock' | 'ids' | 'files'> & { sandbox: CodeSandbox },
  recorded: { run: RunRecord; events: readonly RunEvent[]; artifacts: readonly WorkspaceArtifact[] },
): Promise<{ outcome: RunOutcome; events: RunEvent[] }> {
  const store = new MemoryStore();
  const runId = deps.ids.newId('run');
  const now = deps.clock.now();
  const run: RunRecord = {
    ...recorded.run,
    id: runId,
    kind: 'replay',
    parentRunId: recorded.run.id,
    forkPoint: null,
    model: NO_MODEL.name,
    status: 'running',
    output: null,
    error: null,
    report: null,
    createdAt: now,
    updatedAt: now,
  };
  await store.createRun(run, {
    events: [{ runId, seq: 1, type: EVENT.runStarted, at: now, data: { skill: plan.name, skillHash: plan.skillHash, model: NO_MODEL.name, input: run.input, parentRunId: recorded.run.id, kind: 'replay' } }],
    artifacts: recorded.artifacts.map((a) => ({ ...a, runId })),
    snapshot: { runId, currentPhase: POST_PHASE, seq: 1, data: { finishPath: FINISH_ARTIFACT_PATH } },
  });
  const outcome = await resumeRun(runId, () => plan, { ...deps, store, model: NO_MODEL }, {
    derivation: { mode: 'replay', parentRunId: recorded.run.id, events: recorded.events },
  });
  return { outcome, events: await store.readEvents(runId) };
}
