/**
 * How a commit travels — the one decision between the two write paths of PrismaStore.commit:
 *
 * - `direct`: the unit as plain SQL (wire.ts directCommit), which the commit lanes send instead of
 *   `stagecraft_apply`. Only on Postgres (the embedded line has no lanes), only for a unit that
 *   directCommit takes (durable, with events, no traces). Its op (for a refused direct write, sent
 *   again through the commit function) is built only when it is needed.
 * - `op`: through `stagecraft_apply`.
 * Either way a unit that ends the run (a terminal status) lets go of the run's claim in the same
 * statement: `unlock` is the key handed over.
 *
 * The unit's text (the direct write's, or the op's) is built before the claim is handed over: a value
 * that cannot be written throws here (PrismaStore turns it into UnsupportedValueError), and must not
 * leave the claim handed to a statement that is never sent.
 *
 * Owns: the choice and its order (build, then release). Does not: build the wire text (wire.ts), send
 * it (commit-lanes.ts, embedded-line.ts) or hold claims (claims.ts). A module of its own, not beside
 * the lanes: the embedded store runs PrismaStore.commit too, and does not load pg.
 */
import type { CommitUnit } from '../kernel/ports';
import { jsonChars } from '../kernel/value-size';
import { directCommit, noMoves, opCommit, withUnlock, type DirectWrite, type WireOp } from './wire';

/** the run statuses that end it */
export const TERMINAL: ReadonlySet<string> = new Set(['completed', 'failed', 'aborted']);

export type CommitRoute =
  | { kind: 'direct'; direct: DirectWrite; op: () => WireOp; unlock: string | null }
  | { kind: 'op'; op: WireOp; unlock: string | null };

export type RouteOptions = {
  /** the lanes take direct writes (Postgres) */
  direct: boolean;
  /** the claim's key to let go of in the commit's statement, when this process holds it (ClaimRegistry.releaseInCommit) */
  releaseInCommit?: (runId: string) => string | null;
};

/**
 * The payload characters from which a unit goes as a direct write on the embedded store too. Its op
 * writes each payload as a JSON string inside the batch's jsonb: escaped by JSON.stringify here
 * (every quote of it), parsed whole as jsonb by the server, unescaped again (`->>`) and parsed a
 * third time as json; the direct write's json form carries it as its own JSON text, lexed twice
 * (the `json` parameter, json_to_recordset). A 16 MB step output's commit on PGlite: see
 * bench/bench-big-value.ts. Below this, the embedded line's batches through `stagecraft_apply`
 * (group commit) are kept: a small unit's payload costs less than a statement of its own.
 */
export const DIRECT_FROM_CHARS = 256 * 1024;

/** whether `unit`'s payloads (its events' data, its snapshot's, its run patch's) pass DIRECT_FROM_CHARS: measured no further than that */
export function carriesMuch(unit: CommitUnit): boolean {
  let left = DIRECT_FROM_CHARS;
  const count = (v: unknown) => (left -= v === undefined ? 0 : jsonChars(v, left)) < 0;
  if (unit.events.some((e) => count(e.data))) return true;
  if (unit.snapshot && unit.snapshot !== 'delete' && count(unit.snapshot.data)) return true;
  const r = unit.run;
  return !!r && (count(r.output) || count(r.error) || count(r.report));
}

/** a unit that ends its run: its commit lets go of the run's claim */
export const endsRun = (unit: CommitUnit): boolean => unit.run?.status !== undefined && TERMINAL.has(unit.run.status);

export function commitRoute(runId: string, unit: CommitUnit, opts: RouteOptions): CommitRoute {
  const direct = opts.direct ? directCommit(runId, unit) : null;
  const op = direct ? null : opCommit(runId, unit, null);
  // built: only now may the claim be handed over
  const unlock = endsRun(unit) ? (opts.releaseInCommit?.(runId) ?? null) : null;
  if (direct) {
    if (unlock) direct.moves = { ...(direct.moves ?? noMoves()), unlock };
    // bound, not an arrow: run through tsx (keepNames) every named closure costs a defineProperty per commit
    return { kind: 'direct', direct, op: opCommit.bind(null, runId, unit, unlock), unlock };
  }
  return { kind: 'op', op: unlock ? withUnlock(op!, unlock) : op!, unlock };
}
