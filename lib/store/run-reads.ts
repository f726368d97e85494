/**
 * The reads a resume makes before its first step — the run row, its snapshot, its events, one
 * workspace artifact, its abort request — and those a run makes while it goes and as it ends (the
 * abort poll, its traces for the summary), as plain SQL on the database's own driver (pg's pool, or
 * the embedded PGlite), not through Prisma.
 *
 * Why: Prisma compiles its query engine (a WebAssembly module shipped as base64) on its first
 * query: measured at 0.4 s on a quiet machine and over 3 s on a loaded one, in every process that
 * resumes a run — the CLI's `resume`, a worker taking up a run after a crash, the CLI's `run`. These
 * reads are all a run or a resume needs, so a process that only drives runs never pays it.
 *
 * Owns: the SQL and the row → record mapping of these reads (the same records records.ts builds
 * from Prisma's rows: Date → epoch ms, SQL NULL → null, json as parsed). Does not: write (wire.ts,
 * the commit functions), or read anything else (prisma-store.ts keeps Prisma for the rest).
 */
import type { Json, JsonObject } from '../kernel/json';
import type { AbortRequest, RunEvent, RunKind, RunRecord, RunStatus, Snapshot, StageTrace, WorkspaceArtifact } from '../kernel/ports';

/** One parameterized query on the driver; its rows as the driver parses them (timestamptz → Date, json → its value). */
export type SqlQuery = (text: string, values: unknown[]) => Promise<Record<string, unknown>[]>;

const ms = (d: unknown): number => (d instanceof Date ? d.getTime() : new Date(String(d)).getTime());
/** a json column as both drivers return it: parsed (a JSON string value is a string) */
const json = (v: unknown): Json => v as Json;
const nullableJson = (v: unknown): Json | null => (v === null || v === undefined ? null : json(v));

export class RunReads {
  constructor(private readonly sql: SqlQuery) {}

  async runExists(runId: string): Promise<boolean> {
    return (await this.sql('SELECT 1 FROM "runs" WHERE "id" = $1', [runId])).length > 0;
  }

  async getRun(runId: string): Promise<RunRecord | null> {
    const [r] = await this.sql(
      `SELECT "id", "skill_name", "skill_hash", "skill_text", "bundle_dir", "skill_version_id"::text AS "skill_version_id", "input", "model",
              "status", "output", "error", "report", "kind", "parent_run_id", "fork_point", "created_at", "updated_at"
         FROM "runs" WHERE "id" = $1`,
      [runId],
    );
    if (!r) return null;
    return {
      id: String(r.id),
      skillName: String(r.skill_name),
      skillHash: String(r.skill_hash),
      skillText: String(r.skill_text),
      bundleDir: String(r.bundle_dir),
      skillVersionId: (r.skill_version_id as string | null) ?? null,
      input: json(r.input) as JsonObject,
      model: String(r.model),
      status: r.status as RunStatus,
      output: nullableJson(r.output),
      error: nullableJson(r.error) as JsonObject | null,
      report: nullableJson(r.report) as JsonObject | null,
      kind: r.kind as RunKind,
      parentRunId: (r.parent_run_id as string | null) ?? null,
      forkPoint: (r.fork_point as string | null) ?? null,
      createdAt: ms(r.created_at),
      updatedAt: ms(r.updated_at),
    };
  }

  async readSnapshot(runId: string): Promise<Snapshot | null> {
    const [s] = await this.sql('SELECT "current_phase", "seq", "data" FROM "snapshots" WHERE "run_id" = $1', [runId]);
    return s ? { runId, currentPhase: String(s.current_phase), seq: Number(s.seq), data: json(s.data) as JsonObject } : null;
  }

  /** a page is one index range scan on the (run_id, seq) key: nothing past `limit` is read */
  async readEvents(runId: string, afterSeq: number, limit?: number): Promise<RunEvent[]> {
    const rows = await this.sql(
      `SELECT "seq", "type", "at", "data" FROM "events" WHERE "run_id" = $1 AND "seq" > $2 ORDER BY "seq"${limit !== undefined ? ' LIMIT $3' : ''}`,
      limit !== undefined ? [runId, afterSeq, Math.max(0, limit)] : [runId, afterSeq],
    );
    return rows.map((e) => ({ runId, seq: Number(e.seq), type: String(e.type), at: ms(e.at), data: json(e.data) as JsonObject }));
  }

  async readArtifact(runId: string, path: string): Promise<WorkspaceArtifact | null> {
    const [a] = await this.sql('SELECT "content", "sha256", "size", "created_at" FROM "workspace_artifacts" WHERE "run_id" = $1 AND "path" = $2', [runId, path]);
    return a ? { runId, path, content: json(a.content), sha256: String(a.sha256), size: Number(a.size), createdAt: ms(a.created_at) } : null;
  }

  async readTraces(runId: string): Promise<StageTrace[]> {
    const rows = await this.sql(
      `SELECT "id", "seq", "round", "phase", "rung", "capability", "stage", "status", "effects", "contribution", "not_applied", "error",
              "started_at", "ended_at", "duration_ms"
         FROM "stage_traces" WHERE "run_id" = $1 ORDER BY "ord"`,
      [runId],
    );
    return rows.map((t) => ({
      id: String(t.id),
      runId,
      seq: Number(t.seq),
      round: Number(t.round),
      phase: String(t.phase),
      rung: t.rung as StageTrace['rung'],
      capability: String(t.capability),
      stage: String(t.stage),
      status: t.status as StageTrace['status'],
      effects: json(t.effects) as StageTrace['effects'],
      contribution: nullableJson(t.contribution),
      notApplied: json(t.not_applied) as JsonObject[],
      error: nullableJson(t.error) as StageTrace['error'],
      startedAt: ms(t.started_at),
      endedAt: ms(t.ended_at),
      durationMs: Number(t.duration_ms),
    }));
  }

  /** the abort requests recorded for any of `runIds` (one query, however many runs are watched: the poll of a driving process, every ABORT_POLL_MS; through Prisma it cost ~1.8 ms of CPU each) */
  async readAbortRequests(runIds: readonly string[]): Promise<AbortRequest[]> {
    if (runIds.length === 0) return [];
    // the ids as one JSON parameter: both drivers pass a text as it is (an array parameter is the driver's to encode)
    const rows = await this.sql(
      `SELECT "run_id", "reason", "requested_by", "via", "requested_at" FROM "abort_requests"
        WHERE "run_id" IN (SELECT jsonb_array_elements_text($1::jsonb))`,
      [JSON.stringify(runIds)],
    );
    return rows.map((r) => ({ runId: String(r.run_id), reason: String(r.reason), requestedBy: String(r.requested_by), via: (r.via as string | null) ?? null, requestedAt: ms(r.requested_at) }));
  }
}
