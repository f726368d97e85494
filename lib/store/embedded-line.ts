/**
 * The embedded database's one line. PGlite runs Postgres inside this
 * process's thread and does one statement at a time; left alone, its own
 * queue hands the next statement over in a microtask, so a burst of queued
 * work (200 runs recorded at once) runs as one long stretch in which the
 * server reads no request and fires no timer. This line puts every use of the
 * database (Prisma's queries and transactions, and the write path) through
 * one queue that:
 *
 * - yields to the event loop between two uses (`setImmediate`), so requests
 *   are read and answered while work waits;
 * - serves `interactive` work (a read someone is waiting on, read-priority.ts)
 *   before `background` work, first come first served within each;
 * - joins the write operations waiting at the same moment into one
 *   `stagecraft_apply` statement (group commit, as commit-lanes.ts does on
 *   Postgres): one statement, one transaction for a burst of runs recorded
 *   together. A batch is one transaction, so one failing operation undoes the
 *   others: its operations are then sent again one by one, each getting its
 *   own answer;
 * - sends a unit with large payloads (a 16 MB step output) as a direct write
 *   of its own (applyDirect), its payloads as their UTF-8 bytes.
 *
 * Owns: the order of the embedded database's work and the write batches.
 * Does not: decide what is written (prisma-store.ts, wire.ts), or apply to
 * Postgres (its pool and lanes do the same job there).
 */
import { types, type PGlite } from '@electric-sql/pglite';
import { currentPriority } from './read-priority';
import { APPLY_SQL, batchParam, directStatement, opText, type DirectWrite, type OpSource, type WireOp } from './wire';
import { batchLength } from './batches';

type Task = () => Promise<void>;

const COMMITTED = { kind: 'committed' } as const;

/**
 * From this many characters, a direct write's parameter goes to PGlite as its UTF-8 bytes (asBytes)
 * rather than as a string. PGlite sizes a string parameter by walking it a character at a time in
 * JavaScript, twice (its protocol writer's byteLength and addString), before encoding it: for a
 * 16 MB payload, more of this thread's time than TextEncoder takes for the whole of it. Bytes go as
 * they are, in the binary format, which for json (json_recv) and text (text_recv) is the text itself,
 * checked by the server as a text parameter is.
 */
const BYTES_FROM_CHARS = 64 * 1024;
const ENCODER = new TextEncoder();
const asBytes = (v: unknown): unknown => (typeof v === 'string' && v.length >= BYTES_FROM_CHARS ? ENCODER.encode(v) : v);
/** the types a direct write's large parameters have (json 114, text 25): bytes passed through, anything else as PGlite's own serializer makes it */
const passBytes = (oid: number) => (v: unknown) => (v instanceof Uint8Array ? v : (types.serializers[oid] as (x: unknown) => unknown)(v));
const BYTES_AS_THEY_ARE = { 114: passBytes(114), 25: passBytes(25) } as unknown as Record<number, (x: unknown) => string>;

/** the methods Prisma's PGlite adapter and the migrations call; each holds the database while it runs */
const EXCLUSIVE = new Set<PropertyKey>(['query', 'exec', 'transaction']);

export class EmbeddedLine {
  private readonly interactive: Task[] = [];
  private readonly background: Task[] = [];
  private busy = false;
  private writes: { op: WireOp; resolve: (r: unknown) => void; reject: (e: unknown) => void }[] = [];
  private writing = false;
  /** statements the write path sent (for tests) */
  statements = 0;

  constructor(private readonly db: PGlite) {}

  /** `task` once the database is ours, at the caller's priority. */
  use<T>(task: () => Promise<T>, priority = currentPriority()): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      (priority === 'interactive' ? this.interactive : this.background).push(() => task().then(resolve, reject));
      this.next();
    });
  }

  /** whether nothing holds or waits for the database (no use under way or queued, no write waiting) */
  idle(): boolean {
    return !this.busy && !this.writing && this.interactive.length === 0 && this.background.length === 0;
  }

  private next(): void {
    if (this.busy) return;
    const task = this.interactive.shift() ?? this.background.shift();
    if (!task) return;
    this.busy = true;
    void task().finally(() => {
      // let the event loop turn (read requests, fire timers) before the next use
      setImmediate(() => {
        this.busy = false;
        this.next();
      });
    });
  }

  /** The database as Prisma's adapter sees it: the same PGlite, each query or transaction taking its turn on this line. */
  gated(): PGlite {
    const db = this.db;
    return new Proxy(db, {
      get: (target, prop) => {
        const value = Reflect.get(target, prop, target) as unknown;
        if (typeof value !== 'function') return value;
        if (!EXCLUSIVE.has(prop)) return (value as (...a: unknown[]) => unknown).bind(target);
        return (...args: unknown[]) => this.use(() => (value as (...a: unknown[]) => Promise<unknown>).apply(target, args));
      },
    });
  }

  /** One write operation; the operations waiting with it go in the same statement. */
  apply(op: WireOp): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.writes.push({ op, resolve, reject });
      if (this.writing) return;
      this.writing = true;
      // queued a microtask later, so that what this tick writes goes in the same batch, and so does
      // whatever is written while the batch waits its turn on the line; a write is background work
      queueMicrotask(() => void this.use(() => this.drain(), 'background'));
    });
  }

  /**
   * One write sent as plain SQL (wire.ts directStatement), in a statement of its own: a unit whose
   * payloads are large (commit-route.ts DIRECT_FROM_CHARS). Refused (a recorded seq, a value the
   * json form cannot take), nothing of it is written and `op` goes through `stagecraft_apply`,
   * whose answer (a conflict with what is recorded, or its error) is the write's.
   */
  applyDirect(direct: DirectWrite, op: OpSource): Promise<unknown> {
    return this.use(async () => {
      const { text, values } = directStatement([direct], []);
      this.statements++;
      try {
        await this.db.query(text, values.map(asBytes), { serializers: BYTES_AS_THEY_ARE });
        return COMMITTED;
      } catch {
        return (await this.send([opText(op)]))[0];
      }
    }, 'background');
  }

  private async drain(): Promise<void> {
    const batch = this.writes.splice(0, batchLength(this.writes));
    try {
      const rows = await this.send(batch.map((w) => w.op));
      batch.forEach((w, i) => w.resolve(rows[i]));
    } catch (e) {
      if (batch.length === 1) batch[0].reject(e);
      else {
        for (const w of batch) {
          try {
            w.resolve((await this.send([w.op]))[0]);
          } catch (one) {
            w.reject(one);
          }
        }
      }
    } finally {
      // what came meanwhile takes its own turn on the line (after any read waiting)
      if (this.writes.length) void this.use(() => this.drain(), 'background');
      else this.writing = false;
    }
  }

  private async send(ops: WireOp[]): Promise<unknown[]> {
    this.statements++;
    const { rows } = await this.db.query<{ r: unknown[] }>(APPLY_SQL, [batchParam(ops)]);
    return rows[0].r;
  }
}
