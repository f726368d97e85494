/** `stagecraft resume [RUN]`, `stagecraft abort RUN`, `stagecraft events RUN`, `stagecraft runs`. */
import { RunNotFoundError, UsageError, errorToJson } from '../lib/kernel/errors';
import { RUN_STATUSES, type RunStatus } from '../lib/kernel/ports';
import { abortSkillRun, resumeAllRuns, resumeSkillRun, type ResumeResult } from '../lib/server/runs/resume-run';
import { summarizeRun } from '../lib/server/runs/run-summary';
import { parse } from './args';
import { withHost } from './store';
import type { Io } from './main';
import { printSummary } from './print';

const isDone = (status: string) => status === 'completed' || status === 'superseded';

export async function resumeCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(argv, { json: { type: 'boolean' }, model: { type: 'string' } }, { min: 0, max: 1, names: 'at most one run id' });
  return withHost(async (host) => {
    if (positionals[0]) {
      const outcome = await resumeSkillRun(host, positionals[0], { model: values.model });
      const summary = await summarizeRun(host.store, outcome);
      if (values.json) io.out(JSON.stringify(summary));
      else if (outcome.status === 'superseded') io.out(`run ${outcome.runId}: another process is resuming it; nothing to do here`);
      else printSummary(summary, io);
      return isDone(outcome.status) ? 0 : 1;
    }
    const rowOf = (r: ResumeResult) =>
      r.outcome ? { runId: r.runId, status: r.outcome.status, error: r.outcome.error } : { runId: r.runId, status: 'not_resumed', error: errorToJson(r.error) };
    // each run as it ends (a long list shows progress): the finished on stdout, the others (and why) on stderr
    const all = await resumeAllRuns(host, undefined, (r) => {
      if (values.json) return;
      const row = rowOf(r);
      (isDone(row.status) ? io.out : io.err)(`${row.runId}: ${row.status}${row.error ? ` — ${String((row.error as { message?: string }).message)}` : ''}`);
    });
    const rows = all.map(rowOf);
    if (values.json) io.out(JSON.stringify({ resumed: rows }));
    else if (rows.length === 0) io.out('no interrupted runs');
    return rows.every((r) => isDone(r.status)) ? 0 : 1;
  }, { runsCode: true });
}

export async function abortCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(argv, { json: { type: 'boolean' }, reason: { type: 'string' } }, { min: 1, max: 1, names: 'one run id' });
  return withHost(async (host) => {
    const { outcome, children } = await abortSkillRun(host, positionals[0], values.reason ?? 'no reason given');
    const summary = await summarizeRun(host.store, outcome);
    if (values.json) io.out(JSON.stringify({ ...summary, abortedChildren: children }));
    else {
      io.out(`run ${outcome.runId}: aborted; it will not be resumed`);
      for (const c of children) io.out(`  its child run ${c}: aborted`);
    }
    return 0;
  });
}

export async function eventsCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(argv, { json: { type: 'boolean' } }, { min: 1, max: 1, names: 'one run id' });
  return withHost(async (host) => {
    const runId = positionals[0];
    if (!(await host.store.getRun(runId))) throw new RunNotFoundError(runId);
    const events = await host.store.readEvents(runId);
    if (values.json) {
      io.out(JSON.stringify({ runId, events }));
      return 0;
    }
    for (const e of events) io.out(`${String(e.seq).padStart(5)}  ${new Date(e.at).toISOString()}  ${e.type.padEnd(18)} ${eventSummary(e.data)}`);
    return 0;
  });
}

function eventSummary(d: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const k of ['phase', 'kind', 'position', 'op', 'stage', 'type', 'status']) if (d[k] !== undefined && d[k] !== null) parts.push(`${k}=${String(d[k])}`);
  if (d.error && typeof d.error === 'object') parts.push(`error=${String((d.error as { message?: string }).message)}`);
  // run_started / run_resumed: which process drove the run from here on
  const driver = d.driver as { kind?: string; worker?: string; host?: string; pid?: number } | undefined;
  if (driver) parts.push(`driver=${driver.worker ? `worker ${driver.worker}` : `${driver.kind ?? '?'} ${driver.host ?? '?'}:${driver.pid ?? '?'}`}`);
  return parts.join(' ');
}

export async function runsCommand(argv: string[], io: Io): Promise<number> {
  const { values } = parse(argv, { json: { type: 'boolean' }, status: { type: 'string' }, limit: { type: 'string' } }, { min: 0, max: 0, names: 'no arguments' });
  const statuses = values.status ? values.status.split(',') : undefined;
  const bad = statuses?.filter((x) => !RUN_STATUSES.includes(x as RunStatus));
  if (bad?.length) throw new UsageError(`--status ${bad.join(',')}: a status is one of ${RUN_STATUSES.join(', ')}`);
  const limit = values.limit === undefined ? 50 : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1) throw new UsageError(`--limit must be a whole number ≥ 1, not ${JSON.stringify(values.limit)}`);
  return withHost(async (host) => {
    const runs = await host.store.listRuns({ status: statuses as RunStatus[] | undefined, limit });
    if (values.json) io.out(JSON.stringify({ runs: runs.map(({ skillText: _t, ...r }) => r) }));
    else for (const r of runs) io.out(`${r.id}  ${r.status.padEnd(9)}  ${r.skillName}  ${new Date(r.createdAt).toISOString()}`);
    return 0;
  });
}
