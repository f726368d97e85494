/**
 * The runs list as the inspector reads it: filtered, searched and paged by
 * keyset, newest first, and the aggregate its chart draws (counts by status
 * over time buckets, p50/p95 duration, where runs failed). One SQL statement
 * per answer on Postgres and the embedded PGlite alike.
 *
 * Owns: the SQL. It filters on the generated columns of `runs` (outcome,
 * error_message, failed_at, needs_attention, duration_ms; see the
 * *_run_inspector_index migration), so nothing parses a run's JSON per row
 * except a text search of inputs. Pages are keyset (`created_at`, `ord`): a
 * page costs the same at run 10 as at run 10,000, and a run started while the
 * user pages does not shift the pages after it.
 *
 * Does not: build views (lib/server does) or know about HTTP. Outside the
 * kernel's port: the kernel never lists runs this way.
 */
import type { RunKind, RunStatus } from '../kernel/ports';
import { relativeToBundle } from '../kernel/error-info';
import type { PrismaClient } from './generated/prisma/client';
import { rawRows, type SqlQuery } from './run-reads';
import { cutText } from '../kernel/cut-text';

export const RUN_OUTCOMES = ['succeeded', 'blocked', 'failed'] as const;
export type RunOutcomeWord = (typeof RUN_OUTCOMES)[number];

export type RunSearch = {
  skill?: string;
  status?: readonly RunStatus[];
  outcome?: readonly RunOutcomeWord[];
  /** exactly this failure point (`failed_at`: `<capability>/<stage>` or a step position) */
  failedAt?: string;
  /** failed, aborted by a step, or blocked, and not taken on by a fork that completed (TAKEN_ON_OF_SQL) */
  needsAttention?: boolean;
  /** created at or after, epoch ms */
  from?: number;
  /** created before, epoch ms */
  to?: number;
  /** a piece of a run id, of its input (as JSON text) or of its error message; case-insensitive */
  text?: string;
};

/** Where a page starts: after this run of the order (created_at desc, ord asc). */
export type RunCursor = { createdAt: number; ord: string };

export type RunIndexRow = {
  id: string;
  skillName: string;
  /** the hash of the version it ran (null before versions were bundles) */
  versionHash: string | null;
  status: RunStatus;
  model: string;
  /** run | replay | fork */
  kind: RunKind;
  parentRunId: string | null;
  /** a fork's fork point */
  forkPoint: string | null;
  createdAt: number;
  updatedAt: number;
  outcome: RunOutcomeWord | null;
  errorMessage: string | null;
  failedAt: string | null;
  /** TAKEN_ON_OF_SQL: false once a fork down its fork chain completed (takenOnBy), whatever its own status */
  needsAttention: boolean;
  /** the newest fork of it (or down its chain of forks) that completed, when it failed, was aborted by a step or blocked (else null) */
  takenOnBy: string | null;
  durationMs: number | null;
  /** what blocked a completed run (its report's `blocked_by`, the reason cut to BLOCKED_REASON_CHARS); null for any other run */
  blockedBy: RunBlockedBy | null;
  /** the first characters of its input as JSON */
  inputPreview: string;
  /** the run's place among runs created in the same millisecond (the cursor's tie-break) */
  ord: string;
};

/** the stage that denied a tool call of a completed run, which call (its index in the round) and the stage's reason */
export type RunBlockedBy = { stage: string; call: number; reason: string };

/** characters of a denial's reason a list row carries (the run page's report has it whole) */
export const BLOCKED_REASON_CHARS = 300;

/**
 * A page row's `blocked_by`: read from the report of the rows of the page alone, and only of a run
 * that completed blocked (the generated `outcome` says so without reading the report): the report of
 * every other run is never parsed for it, and no column is stored for it. Of `runs r`.
 */
export const BLOCKED_BY_SQL = `CASE WHEN r."outcome" = 'blocked' AND r."status" = 'completed' THEN r."report" -> 'blocked_by' END`;

/**
 * Whether a run needs attention, the one definition the list's rows, its filter, the chart's count,
 * the studio's recent runs, `stagecraft runs --attention` and the home page's Last run share: its own
 * `needs_attention` (failed; aborted or blocked, not on a user's request), unless a fork of it (or a
 * fork down its chain of forks) completed since. That
 * fork took it on (a rerun from its failed step, with the skill fixed) and got through. A replay
 * re-executes the same recording to check it and fixes nothing; a `run` child of it is a `run_skill`
 * call. The run's status stays what it was (history is not rewritten): only the attention changes.
 */
const TAKER = (d: string) => `${d}."kind" = 'fork' AND ${d}."status" = 'completed'`;
/**
 * The fork chain: a fork that completed anywhere down a chain of forks takes on every run on the way
 * (A failed, its fork B failed again, B's fork C completed: C took on B and A). At most
 * MAX_FORK_DEPTH forks deep, the same bound down from a run (its row, the filter) and up from a
 * completed fork (the chart's count). A fork that completed ends the walk down: it took the run on.
 */
const MAX_FORK_DEPTH = 32;
/** the forks down the chain from the run whose id is `id`: `chain(id, status, created_at, ord, depth)` */
const FORK_CHAIN_OF = (id: string) => `WITH RECURSIVE chain("id", "status", "created_at", "ord", "depth") AS (
    SELECT d."id", d."status", d."created_at", d."ord", 1 FROM "runs" d WHERE d."parent_run_id" = ${id} AND d."kind" = 'fork'
    UNION ALL
    SELECT d."id", d."status", d."created_at", d."ord", c."depth" + 1 FROM chain c JOIN "runs" d ON d."parent_run_id" = c."id" AND d."kind" = 'fork'
     WHERE c."status" <> 'completed' AND c."depth" < ${MAX_FORK_DEPTH})`;
const FORK_CHAIN = FORK_CHAIN_OF('r."id"');
/** a fork down the chain that took the run whose id is `id` on (the home page's Last run asks it of its run) */
export const TAKEN_ON_OF_SQL = (id: string) => `${FORK_CHAIN_OF(id)} SELECT 1 FROM chain WHERE chain."status" = 'completed'`;
/** a fork down the chain that took run `r` on: probes of runs_parent_run_id_idx, made for the runs that need attention on their own alone */
const TAKEN_ON_SQL = TAKEN_ON_OF_SQL('r."id"');
/** the newest fork down the chain that took `r` on, of a run that needed attention on its own; else null */
const TAKEN_ON_BY_SQL = `CASE WHEN r."needs_attention" THEN (${FORK_CHAIN} SELECT chain."id" FROM chain WHERE chain."status" = 'completed' ORDER BY chain."created_at" DESC, chain."ord" ASC LIMIT 1) END`;
/**
 * the runs the chart's search selects that need attention on their own but were taken on, counted up
 * from the completed forks (runs_parent_run_id_idx holds only derived runs) through their fork chains,
 * so the chart's read of every run stays index-only; `where` reads `r`
 */
const TAKEN_ON_COUNT_SQL = (where: string) => `WITH RECURSIVE up("id", "depth") AS (
    SELECT d."parent_run_id", 1 FROM "runs" d WHERE d."parent_run_id" IS NOT NULL AND ${TAKER('d')}
    UNION ALL
    SELECT a."parent_run_id", u."depth" + 1 FROM up u JOIN "runs" a ON a."id" = u."id"
     WHERE a."kind" = 'fork' AND a."parent_run_id" IS NOT NULL AND u."depth" < ${MAX_FORK_DEPTH})
  SELECT count(DISTINCT r."id") AS n FROM up JOIN "runs" r ON r."id" = up."id" WHERE r."needs_attention" AND ${where}`;

export type RunPage = { rows: RunIndexRow[]; next: RunCursor | null };

export type RunStats = {
  total: number;
  needsAttention: number;
  byStatus: Record<RunStatus, number>;
  /** the width of a bucket; buckets start at `start + i * bucketMs` */
  bucketMs: number;
  buckets: { start: number; counts: Record<RunStatus, number> }[];
  /** of the runs that ended */
  duration: { count: number; p50: number | null; p95: number | null };
  /** the most frequent failure points of the runs the other filters (all but `failedAt`) select, most frequent first */
  failures: { at: string; count: number }[];
  /** whether any run at all, whatever the filters, has a failure point (the filters hide it when `failures` is empty) */
  anyFailed: boolean;
};

export type RunIndex = {
  page(search: RunSearch, opts: { after?: RunCursor; limit: number }): Promise<RunPage>;
  stats(search: RunSearch, opts: { buckets: number }): Promise<RunStats>;
  /** one run's `takenOnBy`, as its list row says it (the run page's Replays and forks); null for none or no such run */
  takenOnBy?(runId: string): Promise<string | null>;
};

/** characters of the input shown in a list row */
export const INPUT_PREVIEW_CHARS = 160;
/** at most this many failure points in `stats` */
const MAX_FAILURE_POINTS = 20;
/** bucket widths a chart can label: 1 s … 30 days */
const NICE_BUCKETS_MS = [1, 5, 15, 30, 60, 300, 900, 1800, 3600, 3 * 3600, 6 * 3600, 12 * 3600, 86400, 7 * 86400, 30 * 86400].map((s) => s * 1000);

const zeroCounts = (): Record<RunStatus, number> => ({ queued: 0, running: 0, completed: 0, failed: 0, aborted: 0 });

/** `%` and `_` in a search are literal characters, not patterns */
const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The smallest bucket width of the list that covers `spanMs` in at most `buckets` buckets. */
export function bucketWidth(spanMs: number, buckets: number): number {
  const wanted = Math.max(1, spanMs) / Math.max(1, buckets);
  return NICE_BUCKETS_MS.find((w) => w >= wanted) ?? Math.ceil(wanted / NICE_BUCKETS_MS[NICE_BUCKETS_MS.length - 1]) * NICE_BUCKETS_MS[NICE_BUCKETS_MS.length - 1];
}

/** The WHERE clause of a search, with its parameters numbered from `$1`. */
function whereOf(s: RunSearch): { sql: string; args: unknown[] } {
  const parts: string[] = [];
  const args: unknown[] = [];
  const arg = (v: unknown) => {
    args.push(v);
    return `$${args.length}`;
  };
  if (s.skill !== undefined) parts.push(`r."skill_name" = ${arg(s.skill)}`);
  if (s.status?.length) parts.push(`r."status" = ANY(${arg([...s.status])}::text[])`);
  if (s.outcome?.length) parts.push(`r."outcome" = ANY(${arg([...s.outcome])}::text[])`);
  if (s.failedAt !== undefined) parts.push(`r."failed_at" = ${arg(s.failedAt)}`);
  // `= true` first: the partial runs_needs_attention_created_at_idx answers it, the subquery checks its runs alone
  if (s.needsAttention === true) parts.push(`r."needs_attention" = true AND NOT EXISTS (${TAKEN_ON_SQL})`);
  if (s.needsAttention === false) parts.push(`(r."needs_attention" = false OR EXISTS (${TAKEN_ON_SQL}))`);
  if (s.from !== undefined) parts.push(`r."created_at" >= stagecraft_ms_to_ts(${arg(s.from)}::float8)`);
  if (s.to !== undefined) parts.push(`r."created_at" < stagecraft_ms_to_ts(${arg(s.to)}::float8)`);
  if (s.text) {
    const p = arg(`%${likeEscape(s.text)}%`);
    parts.push(`(r."id" ILIKE ${p} OR r."error_message" ILIKE ${p} OR r."input"::text ILIKE ${p})`);
  }
  return { sql: parts.length ? parts.join(' AND ') : 'true', args };
}

type PageRow = {
  id: string;
  skill_name: string;
  version_hash: string | null;
  status: string;
  model: string;
  parent_run_id: string | null;
  kind: string;
  fork_point: string | null;
  created_at: Date;
  updated_at: Date;
  outcome: string | null;
  error_message: string | null;
  bundle_dir: string | null;
  failed_at: string | null;
  needs_attention: boolean;
  taken_on_by: string | null;
  duration_ms: number | null;
  blocked_by: unknown;
  input_preview: string;
  ord: string;
};

export class PrismaRunIndex implements RunIndex {
  private readonly client: () => PrismaClient | Promise<PrismaClient>;

  /**
   * `prisma`: the client, or how to make it on first use. `sql`: the database's own driver, when the
   * list's statements go there instead (the embedded store: a `stagecraft runs` then never imports
   * Prisma's client nor compiles its query engine's WebAssembly, ~0.1-0.2 s of the command's CPU).
   */
  constructor(
    prisma: PrismaClient | (() => PrismaClient | Promise<PrismaClient>),
    private readonly sql?: SqlQuery,
  ) {
    this.client = typeof prisma === 'function' ? prisma : () => prisma;
  }

  /** one raw statement: on the driver when there is one, else through Prisma */
  private raw<T>(text: string, ...values: unknown[]): Promise<T[]> {
    return rawRows<T>(this.sql, this.client, text, values);
  }

  async page(search: RunSearch, opts: { after?: RunCursor; limit: number }): Promise<RunPage> {
    const where = whereOf(search);
    const args = [...where.args];
    let keyset = '';
    if (opts.after) {
      args.push(opts.after.createdAt, opts.after.ord);
      const [c, o] = [`$${args.length - 1}`, `$${args.length}`];
      keyset = ` AND (r."created_at" < stagecraft_ms_to_ts(${c}::float8) OR (r."created_at" = stagecraft_ms_to_ts(${c}::float8) AND r."ord" > ${o}::bigint))`;
    }
    const limit = Math.max(1, Math.floor(opts.limit));
    args.push(limit + 1);
    const rows = await this.raw<PageRow>(
      `SELECT r."id", r."skill_name", v."hash" AS version_hash, r."status", r."model", r."kind", r."parent_run_id", r."fork_point", r."created_at", r."updated_at",
              r."outcome", r."error_message", r."bundle_dir", r."failed_at", r."needs_attention", r."duration_ms",
              ${TAKEN_ON_BY_SQL} AS taken_on_by, ${BLOCKED_BY_SQL} AS blocked_by, left(r."input"::text, ${INPUT_PREVIEW_CHARS}) AS input_preview, r."ord"::text AS ord
         FROM "runs" r LEFT JOIN "skill_versions" v ON v."id" = r."skill_version_id"
        WHERE ${where.sql}${keyset}
        ORDER BY r."created_at" DESC, r."ord" ASC
        LIMIT $${args.length}`,
      ...args,
    );
    const page = rows.slice(0, limit).map(toRow);
    const last = page[page.length - 1];
    return { rows: page, next: rows.length > limit && last ? { createdAt: last.createdAt, ord: last.ord } : null };
  }

  async takenOnBy(runId: string): Promise<string | null> {
    const rows = await this.raw<{ taken_on_by: string | null }>(`SELECT ${TAKEN_ON_BY_SQL} AS taken_on_by FROM "runs" r WHERE r."id" = $1`, runId);
    return rows[0]?.taken_on_by ?? null;
  }

  async stats(search: RunSearch, opts: { buckets: number }): Promise<RunStats> {
    const where = whereOf(search);
    // the failure points are those of the runs every other filter selects: picking one still offers the rest
    const others = whereOf({ ...search, failedAt: undefined });
    const [rows, points, takenOn] = await Promise.all([
      this.raw<StatsRow>(statsSql(where.sql, where.args.length), ...where.args, search.from ?? null, search.to ?? null, opts.buckets, NICE_BUCKETS_MS),
      this.raw<{ at: string; n: bigint }>(
        `SELECT r."failed_at" AS at, count(*) AS n FROM "runs" r WHERE ${others.sql} AND r."failed_at" IS NOT NULL
          GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT ${MAX_FAILURE_POINTS}`,
        ...others.args,
      ),
      // the runs the search selects that need attention on their own but were taken on: from the completed
      // forks (runs_parent_run_id_idx holds only derived runs), so the chart's read of every run stays index-only
      this.raw<{ n: bigint }>(
        TAKEN_ON_COUNT_SQL(where.sql),
        ...where.args,
      ),
    ]);
    const head = rows[0];
    const total = Number(head?.total ?? 0);
    const start = Number(head?.start ?? 0);
    const bucketMs = Number(head?.bucket_ms ?? 1000);
    const byStatus = zeroCounts();
    const buckets = Array.from({ length: total ? Number(head.buckets) : 0 }, (_, i) => ({ start: start + i * bucketMs, counts: zeroCounts() }));
    for (const row of total ? rows : []) {
      const status = row.status as RunStatus;
      byStatus[status] += Number(row.n);
      const b = buckets[Math.min(Math.max(0, Number(row.b)), buckets.length - 1)];
      b.counts[status] += Number(row.n);
    }
    const failures = points.map((p) => ({ at: p.at, count: Number(p.n) }));
    // none left by the filters: whether they hide some, or no run ever failed
    const anyFailed =
      failures.length > 0 ||
      (await this.raw<{ any: boolean }>(`SELECT EXISTS (SELECT 1 FROM "runs" r WHERE r."failed_at" IS NOT NULL) AS any`))[0]?.any === true;
    return {
      total,
      needsAttention: Number(head?.attention ?? 0) - Number(takenOn[0]?.n ?? 0),
      byStatus,
      bucketMs,
      buckets,
      duration: { count: Number(head?.ended ?? 0), p50: microRound(head?.p50), p95: microRound(head?.p95) },
      failures,
      anyFailed,
    };
  }
}

type StatsRow = {
  total: bigint;
  attention: bigint;
  ended: bigint;
  p50: number | null;
  p95: number | null;
  start: number;
  bucket_ms: number;
  buckets: number;
  b: number | null;
  status: string | null;
  n: bigint | null;
};

/**
 * The chart's figures in one statement, from one read of the runs the search selects (`f`, its
 * four columns kept aside, its time as epoch ms: float8 arithmetic, exact for whole ms, where
 * numeric's was half the cost of the buckets): the totals and percentiles (`h`), the buckets' span and width (`w`: from
 * `from`, else the first run; to `to`, else just after the last; the width as bucketWidth chooses it),
 * and the counts per bucket and status, one row each (none when no run matched: the totals' row alone).
 * Reading the runs twice (the totals, then the buckets from their span) cost as much again:
 * each read is of every row of "runs", ~1.5 kB apiece in a busy store. Parameters: the search's,
 * then `from`, `to` (epoch ms or null), the number of buckets and NICE_BUCKETS_MS.
 */
export function statsSql(where: string, n: number): string {
  const [from, to, count, nice] = [n + 1, n + 2, n + 3, n + 4].map((i) => `$${i}`);
  return `WITH f AS MATERIALIZED (SELECT round(date_part('epoch', r."created_at") * 1000) AS at, r."status", r."needs_attention", r."duration_ms" FROM "runs" r WHERE ${where}),
    h AS (SELECT count(*) AS total, count(*) FILTER (WHERE f."needs_attention") AS attention, count(f."duration_ms") AS ended,
                 percentile_cont(0.5) WITHIN GROUP (ORDER BY f."duration_ms") AS p50,
                 percentile_cont(0.95) WITHIN GROUP (ORDER BY f."duration_ms") AS p95,
                 coalesce(${from}::float8, min(f."at"), 0) AS start,
                 max(f."at") + 1 AS last
            FROM f),
    s AS (SELECT h.*, greatest(1, coalesce(${to}::float8, h.last, h.start + 1) - h.start) / greatest(1, ${count}::float8) AS wanted FROM h),
    w AS (SELECT s.*, coalesce((SELECT min(x) FROM unnest(${nice}::float8[]) AS x WHERE x >= s.wanted),
                               ceil(s.wanted / (${nice}::float8[])[array_length(${nice}::float8[], 1)]) * (${nice}::float8[])[array_length(${nice}::float8[], 1)]) AS bucket_ms
            FROM s)
    SELECT w."total", w."attention", w."ended", w."p50", w."p95", w."start", w."bucket_ms",
           greatest(1, ceil((coalesce(${to}::float8, w.last, w.start + 1) - w.start) / w."bucket_ms"))::int AS buckets, g."b", g."status", g."n"
      FROM w LEFT JOIN (
        SELECT floor((f."at" - w."start") / w."bucket_ms")::int AS b, f."status", count(*) AS n
          FROM f, w GROUP BY 1, 2
      ) g ON true`;
}

/** a percentile in ms, without the float noise of its interpolation */
const microRound = (ms: number | null | undefined): number | null => (ms === null || ms === undefined ? null : Math.round(Number(ms) * 1000) / 1000);

/**
 * A run's error message as the runs list (and a skill's last run) says it: the bundle copy the run
 * executed from is an address in the data dir, so its files are named as the report names them.
 * A run of a folder (`stagecraft run DIR`) records the folder as its bundle dir but executes from
 * the version's copy, `<data dir>/bundles/<version hash>/`: that copy's address is cut too (one
 * unbroken by spaces; the recorded message itself is never changed).
 */
export function runErrorWords(message: string | null, bundleDir: string | null, versionHash: string | null = null): string | null {
  if (message === null) return null;
  const words = relativeToBundle(message, bundleDir ? [bundleDir] : []);
  if (!versionHash || !/^[0-9a-f]+$/.test(versionHash)) return words;
  return words.replace(new RegExp(`(?<=^|[\\s"'(])(?:file://)?/(?:[^\\s"'()/]+/)*${versionHash}/`, 'gm'), '');
}

function toRow(r: PageRow): RunIndexRow {
  return {
    id: r.id,
    skillName: r.skill_name,
    versionHash: r.version_hash,
    status: r.status as RunStatus,
    model: r.model,
    kind: r.kind as RunKind,
    parentRunId: r.parent_run_id,
    forkPoint: r.fork_point,
    createdAt: r.created_at.getTime(),
    updatedAt: r.updated_at.getTime(),
    outcome: r.outcome as RunOutcomeWord | null,
    errorMessage: runErrorWords(r.error_message, r.bundle_dir, r.version_hash),
    failedAt: r.failed_at,
    needsAttention: r.needs_attention && r.taken_on_by === null,
    takenOnBy: r.taken_on_by,
    durationMs: r.duration_ms === null ? null : Number(r.duration_ms),
    blockedBy: blockedByOf(r.blocked_by),
    inputPreview: r.input_preview,
    ord: r.ord,
  };
}

/** a report's `blocked_by` as a row carries it (the driver's parsed JSON, or its text), its reason cut; null when it is not one */
export function blockedByOf(v: unknown): RunBlockedBy | null {
  let b = v;
  if (typeof b === 'string') {
    try {
      b = JSON.parse(b);
    } catch {
      return null;
    }
  }
  if (!b || typeof b !== 'object') return null;
  const { stage, call, reason } = b as Record<string, unknown>;
  if (typeof stage !== 'string' || typeof reason !== 'string' || typeof call !== 'number' || !Number.isInteger(call)) return null;
  return { stage, call, reason: cutText(reason, BLOCKED_REASON_CHARS) };
}
