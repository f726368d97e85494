/**
 * `stagecraft compare A B`, `GET /api/compare?a=&b=`: two runs aligned by
 * step position (lib/kernel/compare.ts) — status and output differences,
 * added and removed steps, the first divergence on top, tokens and latency
 * side by side — and, for a failed run's page, the first divergence from the
 * last completed run of the same skill before it (`?b=` alone).
 */
import { compareLogs, type OutcomeSide } from '../../kernel/compare';
import { RunNotFoundError, UsageError } from '../../kernel/errors';
import { relativeErrorValue } from '../../kernel/error-info';
import type { RunEvent, RunRecord } from '../../kernel/ports';
import { EVENT } from '../../kernel/events';
import type { Json } from '../../kernel/json';
import type { BaselineDivergenceView, CompareSideView, CompareView } from '../../views';
import type { Host } from '../host';
import { compareDivergenceView, compareRowView } from './divergence-views';
import { shownModel } from '../../views/shown-model';

async function mustGet(host: Pick<Host, 'store'>, runId: string): Promise<RunRecord> {
  const run = await host.store.getRun(runId);
  if (!run) throw new RunNotFoundError(runId);
  return run;
}

function sideView(run: RunRecord, o: OutcomeSide, version: string | null): CompareSideView {
  return {
    runId: run.id,
    skill: run.skillName,
    version,
    kind: run.kind,
    status: run.status,
    model: shownModel(run.model),
    output: run.output,
    // its files named as the run page names them: the server's bundle folder never reaches the browser
    error: run.error && (relativeErrorValue(run.error, [run.bundleDir]) as typeof run.error),
    steps: o.steps,
    insideAnswered: o.insideAnswered,
    insideParents: o.insideParents,
    tokens: o.tokens,
    ...(o.tokensNotReported ? { tokensNotReported: o.tokensNotReported } : {}),
    durationMs: o.durationMs,
    createdAt: run.createdAt,
  };
}

export async function compareRuns(host: Pick<Host, 'store' | 'skills'>, a: string, b: string): Promise<CompareView> {
  const [ra, rb] = await Promise.all([mustGet(host, a), mustGet(host, b)]);
  const [ea, eb, hashes] = await Promise.all([
    host.store.readEvents(a),
    host.store.readEvents(b),
    host.skills.versionHashes([ra.skillVersionId, rb.skillVersionId].filter((id): id is string => id !== null)),
  ]);
  const cmp = compareLogs(ea, eb);
  const divergences = cmp.divergences.map(compareDivergenceView);
  const hashOf = (r: RunRecord) => (r.skillVersionId ? (hashes.get(r.skillVersionId) ?? null) : null);
  return {
    a: sideView(ra, cmp.a, hashOf(ra)),
    b: sideView(rb, cmp.b, hashOf(rb)),
    identical: divergences.length === 0,
    sameRun: ra.id === rb.id,
    firstDivergence: divergences[0] ?? null,
    divergences,
    rows: cmp.rows.map(compareRowView),
    stoppedAt: cmp.stoppedAt,
    lineage: ra.id === rb.id ? null : withVersions(await lineageNote(host, ra, rb), hashOf(ra), hashOf(rb)),
    forkEdit: ra.id === rb.id ? null : forkEditOf(ra, rb, ea, eb),
  };
}

/**
 * The value a fork edited flowing in at its point (a step's input, a phase's input, the finish
 * artifact), A's beside B's, when one of the two is a fork of the other with such an edit: no step
 * row holds it (the rows are steps' outputs), so compare showed the lineage but not the value.
 */
export function forkEditOf(aRun: RunRecord, bRun: RunRecord, aEvents: readonly RunEvent[], bEvents: readonly RunEvent[]): CompareView['forkEdit'] {
  const [child, events, side] = bRun.parentRunId === aRun.id ? [bRun, bEvents, 'B' as const] : aRun.parentRunId === bRun.id ? [aRun, aEvents, 'A' as const] : [null, [], null];
  if (!child || !side || child.kind !== 'fork') return null;
  const marker = events.find((e) => e.type === EVENT.forkPointReached);
  if (!marker || marker.data.target !== 'input' || marker.data.edited === null || marker.data.edited === undefined) return null;
  const position = String(marker.data.position);
  const recorded = (marker.data.recorded ?? null) as Json;
  const edited = marker.data.edited as Json;
  return {
    position: child.forkPoint ?? (position.includes('/') ? `${position}/input` : position),
    side,
    a: side === 'B' ? recorded : edited,
    b: side === 'B' ? edited : recorded,
  };
}

/** The last completed run of the same skill before `runId` (a plain run or a fork, never a replay): null when there is none. */
export async function lastCompletedBefore(host: Pick<Host, 'store'>, run: RunRecord): Promise<RunRecord | null> {
  const runs = await host.store.listRuns({ skillName: run.skillName, status: ['completed'], kind: ['run', 'fork'], limit: 200 });
  return runs.find((r) => r.id !== run.id && r.createdAt <= run.createdAt) ?? null;
}

/** What a failed run's page shows unasked: where it first went another way than the last completed run of its skill. */
export async function divergenceFromLastCompleted(host: Pick<Host, 'store'>, runId: string): Promise<BaselineDivergenceView> {
  const run = await mustGet(host, runId);
  const baseline = await lastCompletedBefore(host, run);
  if (!baseline) return { runId, baselineRunId: null, firstDivergence: null };
  const cmp = compareLogs(await host.store.readEvents(baseline.id), await host.store.readEvents(runId));
  return { runId, baselineRunId: baseline.id, firstDivergence: cmp.divergences[0] ? compareDivergenceView(cmp.divergences[0]) : null };
}

/** `GET /api/compare`: `?a=&b=` compares the two; `?b=` alone, b against its skill's last completed run. */
export async function compareOrBaseline(host: Pick<Host, 'store' | 'skills'>, a: string | null, b: string | null): Promise<CompareView | BaselineDivergenceView> {
  if (!b) throw new UsageError('Name the runs to compare: ?a=<run id>&b=<run id>, or ?b=<run id> alone for its first divergence from the last completed run of its skill.');
  return a ? compareRuns(host, a, b) : divergenceFromLastCompleted(host, b);
}

/**
 * The lineage note, and when the two ran different versions of the skill, which each ran: a rerun after
 * a fix (`Rerun from here` takes the latest version) or a replay against a newer version differs from
 * the fork point on because of the version, which the note did not say — it read as the same skill again.
 */
export function withVersions(note: string | null, a: string | null, b: string | null): string | null {
  if (note === null || a === null || b === null || a === b) return note;
  return `${note} B ran version ${b.slice(0, 8)}; A ran ${a.slice(0, 8)}.`;
}

/**
 * How A and B are related, when one is a replay or a fork of the other — so that a divergence at
 * the fork point reads as the fork's own doing, and the steps before it as reused, not as two runs
 * that happened to agree: `B is a fork of A, from __post__/1/input with the value there edited: …`.
 */
export async function lineageNote(host: Pick<Host, 'store'>, aRun: RunRecord, bRun: RunRecord): Promise<string | null> {
  const a = aRun.id;
  const [child, parent, childSide, parentSide] = bRun.parentRunId === a ? [bRun, a, 'B', 'A'] : aRun.parentRunId === bRun.id ? [aRun, bRun.id, 'A', 'B'] : [null, null, '', ''];
  if (!child || !parent) return null;
  if (child.kind === 'replay') {
    return `${childSide} is a replay of ${parentSide}: its model turns and tool outcomes are ${parentSide}'s, answered from the recording; its stages and processor steps ran again.`;
  }
  if (child.kind !== 'fork') return null;
  const start = (await host.store.readEvents(child.id, 0, 1))[0];
  const fork = start?.data.fork as { target?: unknown; value?: unknown } | undefined;
  const edited = fork !== undefined && fork.target !== 'rerun' && fork.value !== undefined;
  const how = edited ? ' with the value there edited' : ' (that step run again)';
  if (child.forkPoint === 'input') return `${childSide} is a fork of ${parentSide}, from the run input${edited ? ' edited' : ''}: ${childSide} ran every step live.`;
  const from = child.forkPoint ? `, from ${child.forkPoint}${how}` : '';
  return `${childSide} is a fork of ${parentSide}${from}: the steps before that point are ${parentSide}'s, answered from the recording; from there on ${childSide} ran live.`;
}
