/**
 * The reads a resume makes before its first step — the run row, its snapshot, its events, one
 * workspace artifact, its abort request — and those a run makes while it goes and as it ends (the
 * abort poll, its traces for the summary), and a worker's sweep for queued runs, as plain SQL on
 * the database's own driver (pg's pool, or the embedded PGlite), not through Prisma.
 *
 * Why: Prisma compiles its query engine (a WebAssembly module shipped as base64) on its first
 * query: measured at 0.4 s on a quiet machine and over 3 s on a loaded one, in every process that
 * resumes a run — the CLI's `resume`, a worker taking up a run after a crash, the CLI's `run`. These
 * reads are all a run or a resume needs, so a process that only drives runs never pays it.
 *
 * Owns: the SQL of these reads, shaped as Prisma's rows so records.ts maps them (Date → epoch ms,
 * SQL NULL → null, json as parsed). Does not: write (wire.ts,
 * the commit functions), or read anything else (prisma-store.ts keeps Prisma for the rest).
 */
import type { AbortRequest, RunEvent, RunFilter, RunRecord, RunStatus, Snapshot, StageTrace, WorkspaceArtifact } from '../kernel/ports';
import { toAbortRequest, toArtifact, toRunEvent, toRunRecord, toSnapshot, toStageTrace } from './records';
import type { AbortRequestRow, ArtifactRow, EventRow, RunRow, SnapshotRow, TraceRow } from './records';

/** One parameterized query on the driver; its rows as the driver parses them (timestamptz → Date, json → its value). */
export type SqlQuery = (text: string, values: unknown[]) => Promise<Record<string, unknown>[]>;

/** what rawRows needs of Prisma's client */
type RawClient = { $queryRawUnsafe<T>(query: string, ...values: unknown[]): Promise<T> };

/**
 * One raw statement's rows: on the driver `sql` when there is one, else through Prisma's client (made
 * on first use by `client`) — the run index's and the skill repo's reads alike.
 */
export async function rawRows<T>(sql: SqlQuery | undefined, client: () => RawClient | Promise<RawClient>, text: string, values: unknown[]): Promise<T[]> {
  return sql ? ((await sql(text, values)) as T[]) : (await client()).$queryRawUnsafe<T[]>(text, ...values);
}

// Each read names its columns as Prisma's fields ("skill_name" AS "skillName"), so a row has the
// shape Prisma reads and records.ts maps it: one mapping for both paths. Both drivers return
// timestamptz as a Date, int as a number and json parsed, as Prisma does.
const as = <Row>(r: Record<string, unknown>): Row => r as unknown as Row;

const RUN_COLUMNS = `"id", "skill_name" AS "skillName", "skill_hash" AS "skillHash", "skill_text" AS "skillText", "bundle_dir" AS "bundleDir",
  "skill_version_id"::text AS "skillVersionId", "input", "model", "status", "output", "error", "report", "kind",
  "parent_run_id" AS "parentRunId", "fork_point" AS "forkPoint", "created_at" AS "createdAt", "updated_at" AS "updatedAt"`;

export class RunReads {
  constructor(private readonly sql: SqlQuery) {}

  async runExists(runId: string): Promise<boolean> {
    return (await this.sql('SELECT 1 FROM "runs" WHERE "id" = $1', [runId])).length > 0;
  }

  async getRunStatus(runId: string): Promise<RunStatus | null> {
    const [r] = await this.sql('SELECT "status" FROM "runs" WHERE "id" = $1', [runId]);
    return r ? (r.status as RunStatus) : null;
  }

  async getRun(runId: string): Promise<RunRecord | null> {
    const [r] = await this.sql(`SELECT ${RUN_COLUMNS} FROM "runs" WHERE "id" = $1`, [runId]);
    return r ? toRunRecord(as<RunRow>(r)) : null;
  }

  /**
   * The runs in one of `status` (every run when null), newest first, ties in creation order (as
   * Prisma's listRuns orders them). Every listing by status alone comes here: a worker's sweep for
   * queued runs whose job was lost (every 30 s), the resume of running and queued runs at start, and
   * an unfiltered listing — so a worker never needs Prisma's client. On the embedded store, every
   * listing (`more`: a skill's runs, by kind, a parent's, by id prefix: `stagecraft regress`).
   */
  async listRuns(status: readonly string[] | null, limit?: number, more: Omit<RunFilter, 'status' | 'limit'> = {}): Promise<RunRecord[]> {
    const values: unknown[] = [];
    const arg = (v: unknown) => `$${values.push(v)}`;
    const conditions: string[] = [];
    // a list as one JSON parameter: both drivers pass a text as it is (an array parameter is the driver's to encode)
    const among = (column: string, list: readonly string[]) => conditions.push(`"${column}" IN (SELECT jsonb_array_elements_text(${arg(JSON.stringify(list))}::jsonb))`);
    if (status) among('status', status);
    if (more.skillName !== undefined) conditions.push(`"skill_name" = ${arg(more.skillName)}`);
    if (more.idPrefix !== undefined) conditions.push(`starts_with("id", ${arg(more.idPrefix)})`);
    if (more.kind) among('kind', more.kind);
    if (more.parentRunId !== undefined) conditions.push(`"parent_run_id" = ${arg(more.parentRunId)}`);
    const where = conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
    const page = limit !== undefined ? ` LIMIT ${arg(Math.max(0, limit))}` : '';
    const rows = await this.sql(`SELECT ${RUN_COLUMNS} FROM "runs" ${where} ORDER BY "created_at" DESC, "ord"${page}`, values);
    return rows.map((r) => toRunRecord(as<RunRow>(r)));
  }

  /** the runs that have a snapshot (interrupted or queued), oldest first */
  async listResumable(): Promise<string[]> {
    const rows = await this.sql('SELECT s."run_id" AS "runId" FROM "snapshots" s JOIN "runs" r ON r."id" = s."run_id" ORDER BY r."ord"', []);
    return rows.map((r) => String(r.runId));
  }

  async readSnapshot(runId: string): Promise<Snapshot | null> {
    const [s] = await this.sql('SELECT "run_id" AS "runId", "current_phase" AS "currentPhase", "seq", "data" FROM "snapshots" WHERE "run_id" = $1', [runId]);
    return s ? toSnapshot(as<SnapshotRow>(s)) : null;
  }

  /** a page is one index range scan on the (run_id, seq) key: nothing past `limit` is read */
  async readEvents(runId: string, afterSeq: number, limit?: number): Promise<RunEvent[]> {
    const rows = await this.sql(
      `SELECT "run_id" AS "runId", "seq", "type", "at", "data" FROM "events" WHERE "run_id" = $1 AND "seq" > $2 ORDER BY "seq"${limit !== undefined ? ' LIMIT $3' : ''}`,
      limit !== undefined ? [runId, afterSeq, Math.max(0, limit)] : [runId, afterSeq],
    );
    return rows.map((e) => toRunEvent(as<EventRow>(e)));
  }

  async readArtifact(runId: string, path: string): Promise<WorkspaceArtifact | null> {
    const [a] = await this.sql(
      'SELECT "run_id" AS "runId", "path", "content", "sha256", "size", "created_at" AS "createdAt" FROM "workspace_artifacts" WHERE "run_id" = $1 AND "path" = $2',
      [runId, path],
    );
    return a ? toArtifact(as<ArtifactRow>(a)) : null;
  }

  /** a run's artifacts, in the order they were kept */
  async listArtifacts(runId: string): Promise<WorkspaceArtifact[]> {
    const rows = await this.sql(
      'SELECT "run_id" AS "runId", "path", "content", "sha256", "size", "created_at" AS "createdAt" FROM "workspace_artifacts" WHERE "run_id" = $1 ORDER BY "ord"',
      [runId],
    );
    return rows.map((a) => toArtifact(as<ArtifactRow>(a)));
  }

  async readTraces(runId: string): Promise<StageTrace[]> {
    const rows = await this.sql(
      `SELECT "id", "run_id" AS "runId", "seq", "round", "phase", "rung", "capability", "stage", "status", "effects", "contribution",
              "not_applied" AS "notApplied", "error", "started_at" AS "startedAt", "ended_at" AS "endedAt", "duration_ms" AS "durationMs"
         FROM "stage_traces" WHERE "run_id" = $1 ORDER BY "ord"`,
      [runId],
    );
    return rows.map((t) => toStageTrace(as<TraceRow>(t)));
  }

  /** the abort requests recorded for any of `runIds` (one query, however many runs are watched: the poll of a driving process, every ABORT_POLL_MS; through Prisma it cost ~1.8 ms of CPU each) */
  async readAbortRequests(runIds: readonly string[]): Promise<AbortRequest[]> {
    if (runIds.length === 0) return [];
    // the ids as one JSON parameter: both drivers pass a text as it is (an array parameter is the driver's to encode)
    const rows = await this.sql(
      `SELECT "run_id" AS "runId", "reason", "requested_by" AS "requestedBy", "via", "requested_at" AS "requestedAt" FROM "abort_requests"
        WHERE "run_id" IN (SELECT jsonb_array_elements_text($1::jsonb))`,
      [JSON.stringify(runIds)],
    );
    return rows.map((r) => toAbortRequest(as<AbortRequestRow>(r)));
  }
}
