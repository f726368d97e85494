/**
 * The summary of a run as the CLI's `run --json` prints it and the API
 * returns it: status, caller artifact, error, derived report, every stage
 * trace and every processor step.
 */
import type { JsonObject } from '../../kernel/json';
import type { RunOutcome } from '../../kernel/runner';
import type { StorePort } from '../../kernel/ports';
import { EVENT } from '../../kernel/events';

export type RunSummary = {
  runId: string;
  status: string;
  output: unknown;
  error: JsonObject | null;
  report: JsonObject | null;
  traces: JsonObject[];
  steps: JsonObject[];
};

export async function summarizeRun(store: StorePort, outcome: RunOutcome): Promise<RunSummary> {
  const [traces, events] = await Promise.all([store.readTraces(outcome.runId), store.readEvents(outcome.runId)]);
  const steps = new Map<string, JsonObject>();
  for (const e of events) {
    const d = e.data;
    if (e.type !== EVENT.stepCompleted || d.kind !== 'processor' || d.nested) continue;
    steps.set(String(d.position), {
      phase: d.phase,
      index: d.index,
      type: d.type,
      status: d.status,
      position: d.position,
      seq: e.seq,
      ...(d.status === 'failed' || d.status === 'skipped' || d.status === 'empty' ? { error: (d.output as JsonObject | null)?.error ?? null } : {}),
    });
  }
  return {
    runId: outcome.runId,
    status: outcome.status,
    output: outcome.output,
    error: outcome.error,
    report: outcome.report as unknown as JsonObject | null,
    traces: traces.map((t) => ({
      round: t.round,
      phase: t.phase,
      rung: t.rung,
      capability: t.capability,
      stage: t.stage,
      status: t.status,
      effects: { asked: t.effects.asked, granted: t.effects.granted },
      error: t.error ? t.error.message : null,
      seq: t.seq,
      durationMs: t.durationMs,
    })),
    steps: [...steps.values()],
  };
}
