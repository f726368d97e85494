/**
 * The shape a unit or a run record travels in to the commit functions
 * (prisma/migrations/*_verbatim_json): the port's own camelCase record, except
 * that every JSON payload (event data, snapshot data, trace effects /
 * contribution / notApplied / error, artifact content, run input / output /
 * error / report) is replaced by its JSON text, a string.
 *
 * Why: SQL that reads a payload as JSON re-parses it — jsonb re-orders its keys
 * and every JSON function refuses a \u0000 inside it — while a string is only
 * unwrapped and cast to `json`, which keeps the text exactly. So what is read
 * back is what was written, key order included (the memo depends on it; see the
 * migration). The scalars around the payloads stay JSON values, parsed by
 * jsonb_to_recordset in one pass.
 *
 * A write travels as one operation of a batch for `stagecraft_apply`
 * (prisma/migrations/*_batched_apply): `opCreate`, `opCommit`, `opClaim`,
 * `opUnlock` build its JSON text, which the commit lanes join into the batch.
 * A direct write (directCommit, directCreate) goes as plain SQL instead
 * (directStatement): its rows as one parameter per value, or as `json`
 * parameters read by json_to_recordset with each payload embedded as its own
 * JSON text — neither escapes a payload again on the client.
 *
 * Owns: this encoding, both directions' conventions (`'null'` text = SQL NULL
 * for nullable payloads; a run-patch key is sent only when it holds a value).
 * Does not: validate the records (the port's types and the table CHECKs do).
 */
import type { CommitUnit, RunRecord } from '../kernel/ports';
import { knownText } from '../kernel/data-text';
import { readableInRow, unreadableInRow } from '../kernel/row-readable';

const text = (v: unknown): string => JSON.stringify(v ?? null);

/** the run patch's payloads a unit writes, by the value each encodes (null: it writes none) */
type Known = Map<object, string> | null;

/** `v`'s JSON text, remembered in `known` when it is an object an event of the unit may carry too */
function payloadText(v: unknown, known: Known): string {
  const t = text(v);
  if (known && typeof v === 'object' && v !== null && typeof (v as { toJSON?: unknown }).toJSON !== 'function') known.set(v, t);
  return t;
}

/** `v`'s JSON text for the runs row's `error` or `report`: see kernel/row-readable.ts (`known` is given the text as recorded, which an event carrying the same value reuses) */
function rowText(v: unknown, known: Known): string {
  const t = payloadText(v, known);
  return unreadableInRow(t) ? text(readableInRow(JSON.parse(t))) : t;
}

/**
 * An event's data as JSON text, exactly JSON.stringify(data): a member that is a value the unit's
 * run patch writes too (by identity, its text in `known`) is that text, not encoded again. A run's
 * end carries its output and its report twice — in its run_completed event and in the runs row —
 * and each was encoded once for each. Members in JSON.stringify's order (Object.keys: the same
 * own enumerable keys, in the same order), skipped where it skips them.
 */
function dataText(data: unknown, known: Known): string {
  // built with the data (a step's record: kernel/data-text.ts)
  const built = knownText(data);
  if (built !== undefined) return built;
  if (!known?.size || typeof data !== 'object' || data === null || Array.isArray(data) || typeof (data as { toJSON?: unknown }).toJSON === 'function') return text(data);
  const o = data as Record<string, unknown>;
  let s = '';
  for (const k of Object.keys(o)) {
    const v = o[k];
    if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
    s += `${s ? ',' : '{'}${JSON.stringify(k)}:${(typeof v === 'object' && v !== null && known.get(v)) || JSON.stringify(v)}`;
  }
  return s ? `${s}}` : '{}';
}

function wireUnit(unit: CommitUnit): string {
  let patch: Record<string, unknown> | null = null;
  const known: Known = unit.run ? new Map() : null;
  if (unit.run) {
    patch = {};
    const r = unit.run;
    if (r.status !== undefined) patch.status = r.status;
    if (r.updatedAt !== undefined) patch.updatedAt = r.updatedAt;
    if (r.output !== undefined) patch.output = payloadText(r.output, known);
    for (const k of ['error', 'report'] as const) if (r[k] !== undefined) patch[k] = rowText(r[k], known);
  }
  const wire: Record<string, unknown> = {
    events: unit.events.map((e) => ({ seq: e.seq, type: e.type, at: e.at, data: dataText(e.data, known) })),
  };
  if (unit.traces?.length) {
    wire.traces = unit.traces.map((t) => ({
      id: t.id,
      seq: t.seq,
      round: t.round,
      phase: t.phase,
      rung: t.rung,
      capability: t.capability,
      stage: t.stage,
      status: t.status,
      effects: text(t.effects),
      contribution: text(t.contribution),
      notApplied: text(t.notApplied),
      error: text(t.error),
      startedAt: t.startedAt,
      endedAt: t.endedAt,
      durationMs: t.durationMs,
    }));
  }
  if (unit.snapshot === 'delete') wire.snapshot = 'delete';
  else if (unit.snapshot) {
    const s = unit.snapshot;
    wire.snapshot = { currentPhase: s.currentPhase, seq: s.seq, data: text(s.data) };
  }
  if (unit.artifacts?.length) {
    wire.artifacts = unit.artifacts.map((a) => ({
      path: a.path,
      content: text(a.content),
      sha256: a.sha256,
      size: a.size,
      createdAt: a.createdAt,
    }));
  }
  if (patch) wire.run = patch;
  if (unit.lazy) wire.lazy = true;
  return JSON.stringify(wire);
}

function wireRun(run: RunRecord): string {
  return JSON.stringify({
    ...run,
    input: text(run.input),
    output: text(run.output),
    error: rowText(run.error, null),
    report: rowText(run.report, null),
  });
}

/** One write operation for `stagecraft_apply`, as JSON text (a lane joins several into one batch). */
export type WireOp = string;

/**
 * An operation, or how to build it: a unit sent as a direct write (directCommit) needs its op only
 * if the database refuses the direct write, so its JSON text is built then, not for every step.
 */
export type OpSource = WireOp | (() => WireOp);

export const opText = (op: OpSource): WireOp => (typeof op === 'string' ? op : op());

/** The statement every write goes through: its one parameter is `batchParam(ops)`; its `r` is their results, in order. */
export const APPLY_SQL = 'SELECT stagecraft_apply($1::jsonb) AS r';

export const batchParam = (ops: readonly WireOp[]): string => `[${ops.join(',')}]`;

export const opCreate = (run: RunRecord, first: CommitUnit): WireOp => `{"op":"create","run":${wireRun(run)},"unit":${wireUnit(first)}}`;

/** `unlock`: the claim key to let go of in the same statement (a commit that ends the run) */
export const opCommit = (runId: string, unit: CommitUnit, unlock?: string | null): WireOp =>
  `{"op":"commit","runId":${JSON.stringify(runId)},"unit":${wireUnit(unit)}${unlock ? `,"unlock":"${unlock}"` : ''}}`;

/** A commit operation (built without `unlock`) that also lets go of the claim `unlock` once applied. */
export const withUnlock = (op: WireOp, unlock: string): WireOp => `${op.slice(0, -1)},"unlock":"${unlock}"}`;

export const opClaim = (key: string): WireOp => `{"op":"claim","key":"${key}"}`;

export const opUnlock = (key: string): WireOp => `{"op":"unlock","key":"${key}"}`;

/**
 * A unit the commit lanes may write without `stagecraft_apply`'s jsonb and plpgsql: plain INSERTs
 * (and an UPDATE, a DELETE) with typed parameters, for a durable unit with events and no traces —
 * an effectful step's commit, a run's first commit after its creation (the snapshot moved, the
 * finish artifact), and its end (the run row's end, the snapshot deleted, the claim let go). The
 * database itself keeps every rule the commit function checks: the events primary key refuses a
 * recorded seq (23505), the gap-free trigger a seq that does not continue the log (SC003) or an
 * event of an unknown run (SC002) — so the run of every row the statement writes is known, its
 * events being there — the tables' CHECKs and foreign keys the values. When it refuses, nothing of
 * the statement is written and the lane sends the operations again through `stagecraft_apply`
 * (commit-lanes.ts), whose answer — a conflict with what is recorded, or its error — is theirs: a
 * direct write only ever succeeds where the commit function would have committed, and writes what
 * it would have written.
 *
 * The rows: events as [runId, seq, type, at, data text], artifacts as [runId, path, content text,
 * sha256, size, createdAt]; `moves`, for a unit that moves more than its events and artifacts: its
 * snapshot as [runId, currentPhase, seq, data text] or its deletion, its run patch as [runId,
 * status, updatedAt, output text, error text, report text] (null where the unit sets nothing; a JSON
 * null is the text 'null', as in its op) and the claim key it lets go of. `chars`: about the size of
 * its op's text (what a batch counts against MAX_BATCH_CHARS, batches.ts), which is only built if
 * the direct write is refused.
 */
export type DirectWrite = { events: unknown[][]; artifacts: unknown[][]; moves?: DirectMoves; chars: number; json?: JsonRows };

/**
 * A write's rows as the json form's text (jsonStatement), built before its statement is: each kind's
 * rows joined (`e` events, `a` artifacts, `c` its creation, `s` its snapshot) and its run patch
 * (`p`, patchJson). See prepareJsonRows.
 */
export type JsonRows = { e: string; a: string; c: string; s: string; p: string };

/** `deleteSnapshot`: the run whose snapshot the unit deletes; `create`: the run row the unit is the first commit of (directCreate) */
export type DirectMoves = { snapshot: unknown[] | null; deleteSnapshot: string | null; run: unknown[] | null; unlock: string | null; create?: unknown[] };

/** moves that move nothing yet */
export const noMoves = (): DirectMoves => ({ snapshot: null, deleteSnapshot: null, run: null, unlock: null });

/** A prepared statement for pg. */
export type Statement = { name: string; text: string; values: unknown[] };

/**
 * The direct write of `unit`, or null when it needs the commit function (no events, traces, a path
 * written twice) — or is lazy: a group commit of pure steps (up to 256 events) was measured slower
 * as text[] parameters than as the commit function's one jsonb (1,000 pure steps, 4 of 4
 * interleaved pairs), and a lazy unit is never what a step waits for. The claim key a run's end lets
 * go of is set by commit-route.ts (`moves.unlock`).
 */
export function directCommit(runId: string, unit: CommitUnit): DirectWrite | null {
  const { events, artifacts = [], snapshot, run } = unit;
  if (!events.length || unit.lazy || unit.traces?.length) return null;
  // a lone surrogate in a text parameter would reach the server as U+FFFD; as JSON text (the op) it is refused
  if (isMalformed(runId) || events.some((e) => isMalformed(e.type)) || artifacts.some((a) => isMalformed(a.path) || isMalformed(a.sha256))) return null;
  if ((snapshot && snapshot !== 'delete' && isMalformed(snapshot.currentPhase)) || (run?.status !== undefined && isMalformed(run.status))) return null;
  if (artifacts.length > 1 && new Set(artifacts.map((a) => a.path)).size !== artifacts.length) return null;
  let chars = 64;
  // the run patch's payloads first: an event that carries them reuses their text (dataText)
  const known: Known = run ? new Map() : null;
  const payload = (v: unknown) => (v === undefined ? null : payloadText(v, known));
  const rowPayload = (v: unknown) => (v === undefined ? null : rowText(v, known));
  const patch = run && [runId, run.status ?? null, run.updatedAt ?? null, payload(run.output), rowPayload(run.error), rowPayload(run.report)];
  const rows = events.map((e) => {
    const data = dataText(e.data, known);
    chars += data.length + e.type.length + 64;
    return [runId, e.seq, e.type, e.at, data];
  });
  const files = artifacts.map((a) => {
    const content = text(a.content);
    chars += content.length + a.path.length + a.sha256.length + 96;
    return [runId, a.path, content, a.sha256, a.size, a.createdAt];
  });
  if (!snapshot && !run) return { events: rows, artifacts: files, chars };
  const moves: DirectMoves = { ...noMoves(), deleteSnapshot: snapshot === 'delete' ? runId : null };
  if (snapshot && snapshot !== 'delete') {
    const data = text(snapshot.data);
    chars += data.length + snapshot.currentPhase.length + 64;
    moves.snapshot = [runId, snapshot.currentPhase, snapshot.seq, data];
  }
  if (patch) {
    for (const v of patch) chars += typeof v === 'string' ? v.length + 16 : 16;
    // an output one of the unit's events carries (a run's end): copied from it by the server, not
    // sent again — still counted in `chars`, as the op sent if the direct write is refused carries it twice
    const from = outputFrom(events, run!.output, patch[3] as string | null);
    if (from) (patch as unknown[]).push(from);
    moves.run = patch;
  }
  return { events: rows, artifacts: files, moves, chars };
}

/** from this many characters, a run patch's output that an event of its unit carries is sent once (outputFrom) */
export const SHARED_OUTPUT_FROM_CHARS = 64 * 1024;

/**
 * Where the run patch's output sits in one of the unit's events: [seq, key] of the first event
 * whose data holds that very value (by identity) as its member `key` — a run's end carries its
 * output in its run_completed event too — when its text is SHARED_OUTPUT_FROM_CHARS or more. The
 * event's data text holds the output's text as it is (dataText reuses it), and the json form
 * copies it into the runs row from the event written (PARTS.patches: json `->` answers a member's
 * text as it stands in its object's): one copy of a 16 MB output sent, checked and parsed by the
 * server rather than two; the row holds the same text.
 */
function outputFrom(events: readonly CommitUnit['events'][number][], output: unknown, text: string | null): [number, string] | null {
  if (text === null || text.length < SHARED_OUTPUT_FROM_CHARS || typeof output !== 'object' || output === null) return null;
  for (const e of events) {
    const d = e.data as unknown;
    if (typeof d !== 'object' || d === null || Array.isArray(d) || typeof (d as { toJSON?: unknown }).toJSON === 'function') continue;
    for (const k of Object.keys(d)) if ((d as Record<string, unknown>)[k] === output) return [e.seq, k];
  }
  return null;
}

/**
 * A run's creation with its first unit as a direct write (see directCommit): the run row inserted in
 * the same statement as the unit's rows, or null when it needs the commit function (what
 * directCommit does not take, or a first unit that patches the run row: the UPDATE would not see a
 * row inserted by the same statement). A creation is durable whatever its unit says, as the commit
 * function's is. The database refuses what `stagecraft_create_run` refuses: an id that exists by the
 * runs primary key (23505; sent again, the commit function answers SC004), a first unit that does
 * not start the log at 1 by the gap-free trigger. The row as [id, skillName, skillHash, skillText,
 * bundleDir, skillVersionId, input text, model, status, output text, error text, report text, kind,
 * parentRunId, forkPoint, createdAt, updatedAt], its payloads as the op's ('null' for a JSON null).
 */
export function directCreate(run: RunRecord, first: CommitUnit): DirectWrite | null {
  if (first.run) return null;
  const texts = [run.skillName, run.skillHash, run.skillText, run.bundleDir, run.skillVersionId, run.model, run.status, run.kind, run.parentRunId, run.forkPoint];
  if (texts.some((t) => typeof t === 'string' && isMalformed(t))) return null;
  const direct = directCommit(run.id, first.lazy ? { ...first, lazy: false } : first);
  if (!direct) return null;
  const row = [
    run.id,
    run.skillName,
    run.skillHash,
    run.skillText,
    run.bundleDir,
    run.skillVersionId ?? null,
    text(run.input),
    run.model,
    run.status,
    text(run.output),
    rowText(run.error, null),
    rowText(run.report, null),
    run.kind ?? null,
    run.parentRunId ?? null,
    run.forkPoint ?? null,
    run.createdAt,
    run.updatedAt,
  ];
  for (const v of row) direct.chars += typeof v === 'string' ? v.length + 16 : 16;
  direct.moves = { ...(direct.moves ?? noMoves()), create: row };
  return direct;
}

/** with the u flag, \p{Cs} matches only a surrogate that is not half of a pair (one RegExp: a literal in the arrow made one per call) */
const LONE_SURROGATE = /\p{Cs}/u;
const isMalformed = (s: string): boolean => LONE_SURROGATE.test(s);

/**
 * Epoch milliseconds as a timestamp, in the direct statements' text: the body of the database's
 * `stagecraft_ms_to_ts(ms float8)` (prisma/migrations/*_commit_functions), written out. Postgres
 * inlines a SQL function when it plans a statement — parsing and analysing its body's text anew
 * at every call in it — and the lanes plan each statement's shape once per connection (commit-
 * lanes.ts), up to seven calls a shape: a new shape's first execution (three runs created and three
 * ended) cost 2.5–3.5 ms of server CPU more than its later ones, 0.1–0.7 ms less written out (5 of 5
 * interleaved sets of 6 connections, load ~11) — some 20 shapes at 200 runs × 5 pure steps, c=8.
 * The same expression once planned; direct-commit.db.test.ts holds it to the function's result.
 */
export const msToTs = (x: string): string => `to_timestamp(${x}::float8 / 1000.0)`;

/** an artifact's row written, or its (run, path) rewritten: both forms of a direct write upsert with it */
const UPSERT_ARTIFACTS = {
  insert: `INSERT INTO "workspace_artifacts" ("run_id", "path", "content", "sha256", "size", "created_at")`,
  onConflict: `  ON CONFLICT ("run_id", "path") DO UPDATE
    SET "content" = EXCLUDED."content", "sha256" = EXCLUDED."sha256", "size" = EXCLUDED."size", "created_at" = EXCLUDED."created_at"`,
};

// Events in the order given, artifacts upserted by (run, path). Every data-modifying WITH runs
// once, whether or not the main query reads it — after the main query (stagecraft_apply of the
// batch's other operations), neither seeing the other's rows: so a direct write never shares a
// statement with another write of its run. It cannot: a run's commit is sent once its previous
// write has answered (the journal waits for each), and only a new run's claim and creation,
// neither a direct write, travel together.
//
// Each kind of row travels as one `json` parameter, an array of objects (jsonRowsOf), read by
// json_to_recordset: a payload sits in it as its own JSON text, not as a string, and a `json`
// column of the record is that text exactly as sent (key order, spacing: the server keeps the
// slice, it does not rebuild it). So the client escapes nothing it has not already (JSON.stringify
// of the short strings around the payloads), where text[] parameters had pg escape every quote
// of every payload, in JavaScript, and the server unescape it. A JSON null read into a record is
// SQL NULL: `coalesce(…, 'null')` puts back the JSON null the op path stores where the column
// holds one. What json_to_recordset refuses (a \u0000 or a lone surrogate escape in a payload,
// which it unescapes to check) refuses the statement, which goes again through the commit function.
// The statement holds a WITH part only for the kinds of rows the batch has (jsonStatement): an
// INSERT or UPDATE with nothing to write still opens its table and indexes, and the commit
// function does only what a unit asks for. Each part's text, given its parameters' numbers:
const PARTS = {
  artifacts: (n: number) => `"written_artifacts" AS (
  ${UPSERT_ARTIFACTS.insert}
  SELECT a.r, a.p, coalesce(a.c, 'null'::json), a.h, a.n, ${msToTs('a.a')}
    FROM json_to_recordset($${n}::json) AS a(r text, p text, c json, h text, n int, a float8)
${UPSERT_ARTIFACTS.onConflict}
)`,
  // `returning`: a patch copies its output from an event written (PARTS.patches, `f`)
  events: (n: number, returning = false) => `"written_events" AS (
  INSERT INTO "events" ("run_id", "seq", "type", "at", "data")
  SELECT e.r, e.s, e.t, ${msToTs('e.a')}, coalesce(e.d, 'null'::json)
    FROM json_to_recordset($${n}::json) AS e(r text, s int, t text, a float8, d json)${returning ? `
  RETURNING "run_id" AS r, "seq" AS s, "data" AS d` : ''}
)`,
  creates: (n: number) => `"created_runs" AS (
  INSERT INTO "runs" ("id", "skill_name", "skill_hash", "skill_text", "bundle_dir", "skill_version_id",
                      "input", "model", "status", "output", "error", "report", "kind", "parent_run_id",
                      "fork_point", "created_at", "updated_at")
  SELECT c.id, c.sn, c.sh, c.st, c.bd, c.sv::uuid, coalesce(c.i, 'null'::json), c.m, c.s, c.o, c.e, c.rp,
         coalesce(c.k, 'run'), c.pr, c.fp, ${msToTs('c.ca')}, ${msToTs('c.ua')}
    FROM json_to_recordset($${n}::json) AS c(id text, sn text, sh text, st text, bd text, sv text, i json, m text, s text,
                                           o json, e json, rp json, k text, pr text, fp text, ca float8, ua float8)
)`,
  snapshots: (n: number) => `"moved_snapshots" AS (
  INSERT INTO "snapshots" ("run_id", "current_phase", "seq", "data")
  SELECT s.r, s.p, s.s, coalesce(s.d, 'null'::json)
    FROM json_to_recordset($${n}::json) AS s(r text, p text, s int, d json)
  ON CONFLICT ("run_id") DO UPDATE
    SET "current_phase" = EXCLUDED."current_phase", "seq" = EXCLUDED."seq", "data" = EXCLUDED."data"
)`,
  // One part for every run the statement ends, its keys found by index whatever the table's size.
  // A commit lane keeps a plan made at the statement's first execution, while the tables may be
  // tiny and never analyzed (Postgres then assumes 10 pages): a join of the tables with a set of keys
  // it expects to be 10 rows or more (unnest of a parameter: 10; json_to_recordset: 100) or
  // `= ANY($n)` (ten keys) is then planned as a sequential scan, hashed, and kept as the tables grow
  // — 0.60 ms of server CPU a run end at 1,000 runs, 3.5 ms at 20,000, against 0.37-0.39 ms by key.
  // So the keys come through a LIMIT that Postgres cannot read at planning: it counts a tenth of its
  // input (10 → 1 row; 100 → 10 → 1 through two), and with one row expected the plan is a nested
  // loop probing the table's primary key once per row, the plan the part of a single run had (test:
  // direct-commit.db.test.ts, "the run end's kept plan"). The LIMIT is the count of the rows, so it
  // drops none. Before, a part per run ended (its key a scalar parameter) made each count of runs
  // ending together a shape of its own, prepared and planned once per connection: 9 of the 18 shapes
  // of 200 pure runs at concurrency 8, ~3 ms of server CPU each.
  deletes: (n: number) => `"deleted_snapshots" AS (
  DELETE FROM "snapshots" s
   USING (SELECT d.r FROM unnest($${n}::text[]) AS d(r) LIMIT cardinality($${n}::text[])) d
   WHERE s."run_id" = d.r
)`,
  // the patches in $n (json rows, each with its run's id `r`), their count in $n+1; `fromEvents`
  // (`f`): an output may be a member of an event written (k & 8: the event `os`, its member `ok`)
  patches: (n: number, fromEvents = false) => `"patched_runs" AS (
  UPDATE "runs" r SET
    "status"     = coalesce(p.s, r."status"),
    "output"     = CASE WHEN p.k & 1 = 0 THEN r."output"${fromEvents ? `
                        WHEN p.k & 8 <> 0 THEN (SELECT w.d -> p.ok FROM "written_events" w WHERE w.r = p.r AND w.s = p.os)` : ''}
                        ELSE p.o END,
    "error"      = CASE WHEN p.k & 2 = 0 THEN r."error" ELSE p.e END,
    "report"     = CASE WHEN p.k & 4 = 0 THEN r."report" ELSE p.rp END,
    "updated_at" = coalesce(${msToTs('p.u')}, r."updated_at")
    FROM (SELECT * FROM (SELECT * FROM json_to_recordset($${n}::json) AS p(r text, s text, u float8, k int, o json, e json, rp json${fromEvents ? ', os int, ok text' : ''})
                          LIMIT $${n + 1}::int) p LIMIT $${n + 1}::int) p
   WHERE r."id" = p.r
)`,
};
/**
 * The claims are let go of in the main query, so before the WITH writes run (Postgres runs those
 * after it) but, as in the commit function, inside the statement's transaction: a statement then
 * refused has let go of them all the same, and its operations sent again let go of them again
 * (pg_advisory_unlock of a lock not held answers false) — what a refused commit did before too
 * (PrismaStore lets go of the claim of a commit that fails).
 */
const UNLOCKS = (n: number) => `, (SELECT count(pg_advisory_unlock(k)) FROM unnest($${n}::bigint[]) AS k) AS u`;
/**
 * the batch's other operations, in the same statement and transaction: the function is told the
 * statement is durable (prisma/migrations/*_apply_durable), so other operations that are all lazy
 * do not turn the WAL flush off for the direct writes
 */
const APPLY = (n: number) => `stagecraft_apply($${n}::jsonb, true)`;
/**
 * The claims a batch of direct writes takes, in the statement's main query rather than as
 * operations of `stagecraft_apply` (`{"op":"claim"}`: the same pg_try_advisory_lock, session-level):
 * a new run's claim travels with creations, which are direct writes, and a statement whose only
 * operations were claims then called the commit function — plpgsql, the batch parsed as jsonb, an
 * array built — for them alone. Its answer `c`: whether each was taken, in the order of the keys
 * (ARRAY of a subquery keeps unnest's order). Before the function's call in the select list, so
 * that, as inside it, every claim is taken before any claim is let go of (its unlocks, the direct
 * writes' UNLOCKS). A claim taken in a statement then refused is held all the same (session locks
 * outlive a rollback): the lane lets go of it before sending the batch again (commit-lanes.ts).
 */
const CLAIMS = (n: number) => `ARRAY(SELECT pg_try_advisory_lock(k) FROM unnest($${n}::bigint[]) AS k) AS c, `;

/**
 * One statement for the direct writes `writes`, the other operations `ops` of a batch and the run
 * claims `claims` (their lock keys, in the batch's order); its `r` is the results of `ops`, in order
 * (no row, or NULL, without any), its `c` whether each claim was taken (CLAIMS; no row, or NULL,
 * without any).
 */
export function directStatement(writes: readonly DirectWrite[], ops: readonly WireOp[], claims: readonly string[] = []): Statement {
  return (!writes.some((w) => w.moves) && rowsStatement(writes, ops, claims)) || jsonStatement(writes, ops, claims);
}

/**
 * The largest batch of direct writes sent as VALUES lists with one row per event and per artifact
 * (`rowsStatement`): past these it is the json form (directStatement). Bounds the statements a connection prepares
 * ((ROWS_MAX_EVENTS+1) × (ROWS_MAX_ARTIFACTS+1) shapes, each with and without claims and the batch's
 * other operations); a step's commit fits, and at concurrency 8 so do the op steps' (two events and an
 * artifact each).
 */
export const ROWS_MAX_EVENTS = 16;
export const ROWS_MAX_ARTIFACTS = 8;

/**
 * A batch's direct writes — one run's (a step's commit alone in its statement) or several runs' —
 * and the batch's other operations (through `stagecraft_apply` as in DIRECT_APPLY_SQL), as plain
 * INSERT … VALUES with one parameter per value, each row with its run id: no text[] for pg to build
 * and escape (every quote of the JSON payloads) nor for the server to parse and unnest, no ORDER BY
 * over the rows. Measured against the unnest form on an op step's commit (two events and an
 * artifact, prepared, one connection, interleaved blocks): 0.22 vs 0.28–0.30 ms of server CPU and
 * 0.68 vs 1.06–1.09 ms per statement. A one-run form that sent the run id once ($1 in every row)
 * measured no cheaper (same commit, 11 interleaved blocks of 300 statements, 3 runs: server CPU
 * 0.28–0.31 vs 0.25–0.32 ms, client CPU 0.17 vs 0.12–0.18 ms), and for a lone event it is the same
 * text. Rows go in the order given, the writes' order (events in seq order within each run, as
 * the unnest form's ORDER BY keeps them); artifacts are upserted by (run, path), their `ord` that
 * of their first writing. The same rules judge it: the events' key and gap-free trigger, the
 * artifacts' foreign key. Null past ROWS_MAX_EVENTS / ROWS_MAX_ARTIFACTS.
 */
function rowsStatement(writes: readonly DirectWrite[], ops: readonly WireOp[], claims: readonly string[]): Statement | null {
  let nEvents = 0;
  let nArtifacts = 0;
  for (const w of writes) {
    nEvents += w.events.length;
    nArtifacts += w.artifacts.length;
  }
  if (nEvents === 0 || nEvents > ROWS_MAX_EVENTS || nArtifacts > ROWS_MAX_ARTIFACTS) return null;
  const values: unknown[] = [];
  for (const w of writes) for (const row of w.events) for (const v of row) values.push(v);
  for (const w of writes) for (const row of w.artifacts) for (const v of row) values.push(v);
  const claim = claims.length > 0;
  if (claim) values.push(claims);
  const apply = ops.length > 0;
  if (apply) values.push(batchParam(ops));
  const key = (nEvents * (ROWS_MAX_ARTIFACTS + 1) + nArtifacts) * 4 + (claim ? 2 : 0) + (apply ? 1 : 0);
  const shape = (ROWS_SQL[key] ??= {
    name: `sc_rows_${nEvents}_${nArtifacts}${claim ? '_claim' : ''}${apply ? '_apply' : ''}`,
    text: rowsSql(nEvents, nArtifacts, claim, apply),
  });
  return { name: shape.name, text: shape.text, values };
}

/** the rows statements' name and text by shape (rowsStatement's key), each built once */
const ROWS_SQL: { name: string; text: string }[] = [];

function rowsSql(nEvents: number, nArtifacts: number, claim: boolean, apply: boolean): string {
  let p = 0;
  const events = Array.from({ length: nEvents }, () => `($${++p}, $${++p}, $${++p}, ${msToTs(`$${++p}`)}, $${++p}::json)`);
  const files = Array.from({ length: nArtifacts }, () => `($${++p}, $${++p}, $${++p}::json, $${++p}, $${++p}::int, ${msToTs(`$${++p}`)})`);
  const insertEvents = `INSERT INTO "events" ("run_id", "seq", "type", "at", "data") VALUES ${events.join(', ')}`;
  const writeArtifacts = nArtifacts ? `"written_artifacts" AS (\n  ${UPSERT_ARTIFACTS.insert} VALUES ${files.join(', ')}\n${UPSERT_ARTIFACTS.onConflict}\n)` : '';
  if (claim || apply) {
    const claims = claim ? CLAIMS(++p) : '';
    return `WITH ${writeArtifacts ? `${writeArtifacts}, ` : ''}"written_events" AS (\n  ${insertEvents}\n) SELECT ${claims}${apply ? APPLY(++p) : 'NULL'} AS r`;
  }
  return writeArtifacts ? `WITH ${writeArtifacts} ${insertEvents}` : insertEvents;
}

/**
 * The json form: any batch of direct writes (the rows form takes only events and artifacts, up to
 * its shapes), with the batch's other operations. One prepared statement per set of kinds of rows
 * present (`sc_json_` and their letters: events, artifacts, creations, snapshots, deletions,
 * patches, unlocks, claims (`k`), operations: `sc_json_edpu`; `f` after `e`: a patch's output
 * copied from an event, outputFrom), its text built once.
 */
function jsonStatement(writes: readonly DirectWrite[], ops: readonly WireOp[], claims: readonly string[]): Statement {
  // each kind's rows as JSON text, a write's joined already (its JsonRows)
  const snapshots: string[] = [];
  const deletes: unknown[] = [];
  const patches: string[] = [];
  const unlocks: unknown[] = [];
  const creates: string[] = [];
  const events: string[] = [];
  const artifacts: string[] = [];
  let copies = false;
  for (const w of writes) {
    const rows = w.json ?? jsonRowsOf(w);
    if (rows.e) events.push(rows.e);
    if (rows.a) artifacts.push(rows.a);
    if (rows.c) creates.push(rows.c);
    if (rows.s) snapshots.push(rows.s);
    const { moves } = w;
    if (!moves) continue;
    if (moves.deleteSnapshot) deletes.push(moves.deleteSnapshot);
    if (moves.run) patches.push(rows.p);
    if (moves.run?.[6]) copies = true;
    if (moves.unlock) unlocks.push(moves.unlock);
  }
  let shape = '';
  const values: unknown[] = [];
  const add = (letter: string, ...vs: unknown[]) => {
    shape += letter;
    values.push(...vs);
  };
  if (events.length) add('e', `[${events.join(',')}]`);
  if (copies) shape += 'f';
  if (artifacts.length) add('a', `[${artifacts.join(',')}]`);
  if (creates.length) add('c', `[${creates.join(',')}]`);
  if (snapshots.length) add('s', `[${snapshots.join(',')}]`);
  if (deletes.length) add('d', deletes);
  if (patches.length) add('p', `[${patches.join(',')}]`, patches.length);
  if (unlocks.length) add('u', unlocks);
  if (claims.length) add('k', claims);
  if (ops.length) add('o', batchParam(ops));
  const text = (JSON_SQL[shape] ??= jsonSql(shape));
  return { name: `sc_json_${shape}`, text, values };
}

/** the json statements' text by shape (jsonStatement) */
const JSON_SQL: Record<string, string> = {};

function jsonSql(shape: string): string {
  let n = 0;
  const parts: string[] = [];
  const part = (letter: string, make: (n: number) => string, params = 1) => {
    if (!shape.includes(letter)) return;
    parts.push(make(n + 1));
    n += params;
  };
  const copies = shape.includes('f');
  part('e', (n) => PARTS.events(n, copies));
  part('a', PARTS.artifacts);
  part('c', PARTS.creates);
  part('s', PARTS.snapshots);
  part('d', PARTS.deletes);
  part('p', (n) => PARTS.patches(n, copies), 2);
  const unlock = shape.includes('u') ? UNLOCKS(++n) : '';
  const claims = shape.includes('k') ? CLAIMS(++n) : '';
  const r = shape.includes('o') ? APPLY(++n) : 'NULL';
  return `WITH ${parts.join(', ')} SELECT ${claims}${r} AS r${unlock}`;
}

/**
 * Builds `w`'s rows for the json form now (DirectWrite.json), so that its statement only joins them:
 * a lane calls it as a write is queued (commit-lanes.ts), while the statement before it is in flight
 * — a run's creation, first commit and end always travel in the json form, a step's commit whenever
 * its batch holds one of those — and the lane's next statement is then not held up by encoding
 * them. What the write says is final by then (commitRoute and directCreate have added their moves).
 */
export function prepareJsonRows(w: DirectWrite): void {
  w.json ??= jsonRowsOf(w);
}

// The rows as JSON objects for json_to_recordset (see PARTS): the keys are the record's columns,
// a payload (JSON text already) goes in as it is, a number as its JSON (String: the same text for
// a finite one), every other value through JSON.stringify. A write's rows all have its run's id,
// quoted once.
function jsonRowsOf(w: DirectWrite): JsonRows {
  const { events, artifacts, moves } = w;
  const run = events.length ? events[0][0] : artifacts.length ? artifacts[0][0] : null;
  const id = { run, text: q(run) };
  let e = '';
  for (let i = 0; i < events.length; i++) e += (i ? ',' : '') + eventJson(events[i], id);
  let a = '';
  for (let i = 0; i < artifacts.length; i++) a += (i ? ',' : '') + artifactJson(artifacts[i], id);
  return {
    e,
    a,
    c: moves?.create ? createJson(moves.create) : '',
    s: moves?.snapshot ? snapshotJson(moves.snapshot) : '',
    p: moves?.run ? patchJson(moves.run) : '',
  };
}

/** a value that is not a payload */
const q = (v: unknown): string => (typeof v === 'number' && Number.isFinite(v) ? String(v) : JSON.stringify(v ?? null));

/** a payload's JSON text, or null (where a unit sets nothing) */
const raw = (v: unknown): string => (typeof v === 'string' ? v : 'null');

/** a write's run id and its JSON (quoted once for all of its rows) */
type RunId = { run: unknown; text: string };
const idJson = (r: unknown, id: RunId): string => (r === id.run ? id.text : q(r));

const eventJson = ([r, s, t, a, d]: unknown[], id: RunId): string => `{"r":${idJson(r, id)},"s":${q(s)},"t":${q(t)},"a":${q(a)},"d":${raw(d)}}`;

const artifactJson = ([r, p, c, h, n, a]: unknown[], id: RunId): string => `{"r":${idJson(r, id)},"p":${q(p)},"c":${raw(c)},"h":${q(h)},"n":${q(n)},"a":${q(a)}}`;

const snapshotJson = ([r, p, s, d]: unknown[]): string => `{"r":${q(r)},"p":${q(p)},"s":${q(s)},"d":${raw(d)}}`;

/**
 * `k`: which of output (1), error (2), report (4) the unit sets; only those are sent. An output one
 * of the unit's events carries (`from`: its seq and key, outputFrom) is not: `k` has 8 too, and
 * `os`, `ok` say where it is.
 */
function patchJson([r, s, u, o, e, rp, from]: unknown[]): string {
  let k = 0;
  let set = '';
  if (from) {
    const [seq, key] = from as [number, string];
    k |= 1 | 8;
    set += `,"os":${q(seq)},"ok":${q(key)}`;
  } else if (o !== null) {
    k |= 1;
    set += `,"o":${raw(o)}`;
  }
  if (e !== null) {
    k |= 2;
    set += `,"e":${raw(e)}`;
  }
  if (rp !== null) {
    k |= 4;
    set += `,"rp":${raw(rp)}`;
  }
  return `{"r":${q(r)},"s":${q(s)},"u":${q(u)},"k":${k}${set}}`;
}

const createJson = ([id, sn, sh, st, bd, sv, i, m, s, o, e, rp, k, pr, fp, ca, ua]: unknown[]): string =>
  `{"id":${q(id)},"sn":${q(sn)},"sh":${q(sh)},"st":${q(st)},"bd":${q(bd)},"sv":${q(sv)},"i":${raw(i)},"m":${q(m)},"s":${q(s)},` +
  `"o":${raw(o)},"e":${raw(e)},"rp":${raw(rp)},"k":${q(k)},"pr":${q(pr)},"fp":${q(fp)},"ca":${q(ca)},"ua":${q(ua)}}`;
