/**
 * The runs list (`GET /api/runs`, the runs page, `stagecraft runs`): runs
 * newest first, narrowed by the filters and the search, a keyset page at a
 * time. The cursor is opaque to callers: the (created_at, ord) of the last
 * run of the page before, as `<ms>.<ord>`.
 */
import { UsageError } from '../../kernel/errors';
import type { RunCursor, RunIndex, RunIndexRow, RunSearch } from '../../store/run-index';
import type { RunFilterQuery, RunListItemView, RunPageView } from '../../views';
import { shownModel } from '../../views/shown-model';

export type RunIndexHost = { store: { runIndex: RunIndex } };

/** how many runs a page holds when the caller does not say */
export const DEFAULT_RUN_PAGE = 50;

/** `cursor`: as the caller gave it (the API's `?cursor=`), or already decoded (the CLI checks it before the store opens) */
export type RunListRequest = RunFilterQuery & { cursor?: string | RunCursor; limit?: number };

export function runSearchOf(q: RunFilterQuery): RunSearch {
  return { skill: q.skill, status: q.status, outcome: q.outcome, failedAt: q.failed, needsAttention: q.attention, from: q.from, to: q.to, text: q.q };
}

/** the latest time a Date holds, and the largest bigint */
const MAX_DATE_MS = 8_640_000_000_000_000;
const MAX_BIGINT = 9_223_372_036_854_775_807n;

export const encodeRunCursor = (c: RunCursor): string => `${c.createdAt}.${c.ord}`;

export function decodeRunCursor(s: string): RunCursor {
  const m = /^(\d{1,16})\.(\d{1,19})$/.exec(s);
  // a time past any date, or an order past a bigint, is no cursor this API gave (the database would refuse it)
  if (!m || Number(m[1]) > MAX_DATE_MS || BigInt(m[2]) > MAX_BIGINT) {
    throw new UsageError(`?cursor=${JSON.stringify(s).slice(0, 60)} is not a cursor this API gave: pass the \`next\` of the page before, as it is.`);
  }
  return { createdAt: Number(m[1]), ord: m[2] };
}

export function runListItemView(r: RunIndexRow): RunListItemView {
  return {
    runId: r.id,
    skill: r.skillName,
    version: r.versionHash,
    status: r.status,
    model: shownModel(r.model),
    kind: r.kind,
    parentRunId: r.parentRunId,
    forkPoint: r.forkPoint,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    outcome: r.outcome,
    needsAttention: r.needsAttention,
    takenOnBy: r.takenOnBy,
    failedAt: r.failedAt,
    errorMessage: r.errorMessage,
    durationMs: r.durationMs,
    blockedBy: r.blockedBy,
    inputPreview: r.inputPreview,
  };
}

export async function listRuns(host: RunIndexHost, q: RunListRequest = {}): Promise<RunPageView> {
  const page = await host.store.runIndex.page(runSearchOf(q), { after: typeof q.cursor === 'string' ? (q.cursor ? decodeRunCursor(q.cursor) : undefined) : q.cursor, limit: q.limit ?? DEFAULT_RUN_PAGE });
  return { runs: page.rows.map(runListItemView), next: page.next ? encodeRunCursor(page.next) : null };
}
