/**
 * The summary of a run as the CLI's `run --json` prints it and the API
 * returns it (RunSummaryView): status, caller artifact, error, derived
 * report, every stage trace and every processor step — and the fuller
 * RunView of `GET /api/runs/<id>`.
 */
import type { Json, JsonObject } from '../../kernel/json';
import { relativeErrorValue, relativeToBundle } from '../../kernel/error-info';
import { bundleRootsOf } from '../../kernel/provenance';
import type { RunOutcome } from '../../kernel/runner';
import type { RunEvent, StageTrace, StorePort } from '../../kernel/ports';
import { EVENT } from '../../kernel/events';
import type { ReportView, RunErrorView, RunSummaryView, RunView, StepView, TraceView } from '../../views';
import type { Host } from '../host';
import { rerunPoint } from './failed-step';
import { runDrivers } from './run-drivers';
import { foldRun } from './run-folds';
import type { RunIndexHost } from './list-runs';
import { shownModel } from '../../views/shown-model';

export type RunSummary = RunSummaryView;

function traceView(t: StageTrace, roots: readonly string[]): TraceView {
  return {
    round: t.round,
    phase: t.phase,
    rung: t.rung,
    capability: t.capability,
    stage: t.stage,
    status: t.status,
    effects: { asked: t.effects.asked, granted: t.effects.granted },
    error: t.error ? relativeToBundle(t.error.message, roots) : null,
    seq: t.seq,
    durationMs: t.durationMs,
  };
}

/** every top-level processor step, at its last record (a step re-executed on resume is recorded again) */
function stepViews(events: readonly RunEvent[], roots: readonly string[]): StepView[] {
  const steps = new Map<string, StepView>();
  for (const e of events) {
    const d = e.data;
    if (e.type !== EVENT.stepCompleted || d.kind !== 'processor' || d.nested) continue;
    steps.set(String(d.position), {
      phase: String(d.phase),
      index: Number(d.index),
      type: String(d.type),
      status: String(d.status),
      position: String(d.position),
      seq: e.seq,
      ...(d.status === 'failed' || d.status === 'skipped' || d.status === 'empty' ? { error: relativeErrorValue((d.output as JsonObject | null)?.error ?? null, roots) } : {}),
    });
  }
  return [...steps.values()];
}

/** errors with the paths of the bundle copy the run executed from relative, as the page and report show them (the --json and the API's alike) */
function summaryOf(o: Pick<RunOutcome, 'runId' | 'status' | 'output' | 'error' | 'report'>, traces: StageTrace[], events: RunEvent[]): RunSummaryView {
  const roots = bundleRootsOf(events);
  return {
    runId: o.runId,
    status: o.status,
    output: o.output,
    error: (o.error ? relativeErrorValue(o.error as Json, roots) : null) as RunErrorView | null,
    report: o.report as unknown as ReportView | null,
    traces: traces.map((t) => traceView(t, roots)),
    steps: stepViews(events, roots),
  };
}

export async function summarizeRun(store: StorePort, outcome: RunOutcome): Promise<RunSummaryView> {
  const [traces, events] = await Promise.all([store.readTraces(outcome.runId), store.readEvents(outcome.runId)]);
  return summaryOf(outcome, traces, events);
}

/** `GET /api/runs/<id>`: the summary and what the run is of, as it stands now (running ones too). */
export async function getRun(host: Pick<Host, 'store' | 'skills'>, runId: string): Promise<RunView> {
  // the events from the run's fold (run-folds.ts): a run asked about again costs a read of what it recorded since, not its whole log
  const { run, fold } = await foldRun(host.store, runId);
  const events = fold.events;
  const isDerived = run.parentRunId !== null && (run.kind === 'replay' || run.kind === 'fork');
  // the runs list's rule (run-index.ts): a fork that completed anywhere down the run's chain of forks took it on
  const index = (host.store as Partial<RunIndexHost['store']>).runIndex;
  const [traces, derived, parent, takenOnBy] = await Promise.all([
    host.store.readTraces(runId),
    host.store.listRuns({ parentRunId: runId, kind: ['replay', 'fork'], limit: 100 }),
    isDerived && run.parentRunId ? host.store.getRun(run.parentRunId) : Promise.resolve(null),
    index?.takenOnBy ? index.takenOnBy(runId) : Promise.resolve(undefined),
  ]);
  const versionIds = [run.skillVersionId, parent?.skillVersionId ?? null].filter((id): id is string => id !== null);
  const hashes = versionIds.length ? await host.skills.versionHashes(versionIds) : new Map<string, string>();
  return {
    ...summaryOf({ runId, status: run.status, output: run.output, error: run.error, report: run.report as RunOutcome['report'] }, traces, events),
    skill: run.skillName,
    version: run.skillVersionId ? (hashes.get(run.skillVersionId) ?? null) : null,
    model: shownModel(run.model),
    input: run.input,
    kind: run.kind,
    parentRunId: run.parentRunId,
    forkPoint: run.forkPoint,
    ...(isDerived ? { parentVersion: parent?.skillVersionId ? (hashes.get(parent.skillVersionId) ?? null) : null } : {}),
    derivedRuns: derived.map((d) => ({ runId: d.id, kind: d.kind, forkPoint: d.forkPoint, status: d.status, createdAt: d.createdAt })),
    ...(takenOnBy !== undefined ? { takenOnBy } : {}),
    createdAt: run.createdAt,
    updatedAt: run.updatedAt,
    eventCount: events.length,
    lastEventAt: events.length ? events[events.length - 1].at : null,
    drivers: runDrivers(events),
    // the page's rerun point: a run aborted by a step has it as its failed step; one aborted on request failed nowhere
    // (the fork `{}` still takes that one on from the phase it stopped in: failed-step.ts)
    rerunFrom: rerunPoint(run.status, events),
  };
}
