// The embedded database's one line, on a real (in-memory) PGlite: the server's event loop turns
// between two uses, a read someone waits on goes before queued background work, and writes issued
// together travel in one statement, a failing one failing alone.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PGlite } from '@electric-sql/pglite';
import { EmbeddedLine } from './embedded-line';
import { asInteractive } from './read-priority';

let db: PGlite;
before(async () => {
  db = await PGlite.create();
  // a stand-in for the real write function: records each op's `v`, refuses an op that says `fail`
  await db.exec(`
    CREATE TABLE written (v int);
    CREATE FUNCTION stagecraft_apply(ops jsonb) RETURNS jsonb LANGUAGE plpgsql AS $$
    DECLARE op jsonb; out jsonb := '[]'::jsonb;
    BEGIN
      FOR op IN SELECT * FROM jsonb_array_elements(ops) LOOP
        IF op ? 'fail' THEN RAISE EXCEPTION 'op % refused', op->>'v'; END IF;
        INSERT INTO written VALUES ((op->>'v')::int);
        out := out || jsonb_build_array((op->>'v')::int * 10);
      END LOOP;
      RETURN out;
    END $$;`);
});
after(async () => {
  await db?.close();
});

describe('EmbeddedLine', () => {
  it('lets the event loop turn between two uses: a timer set during a burst fires before the burst ends', async () => {
    const line = new EmbeddedLine(db);
    const gated = line.gated();
    const order: string[] = [];
    const burst = Array.from({ length: 30 }, (_, i) => gated.query('SELECT pg_sleep(0.001), $1::int AS i', [i]).then(() => order.push(`q${i}`)));
    const timer = new Promise<void>((r) => setTimeout(() => (order.push('timer'), r()), 0));
    await Promise.all([...burst, timer]);
    assert.ok(order.indexOf('timer') < order.indexOf('q29'), `the timer waited for the whole burst: ${order.join(' ')}`);
  });

  it('serves a read someone waits on before the background work queued ahead of it', async () => {
    const line = new EmbeddedLine(db);
    const gated = line.gated();
    const order: string[] = [];
    const background = Array.from({ length: 10 }, (_, i) => gated.query('SELECT $1::int AS i', [i]).then(() => order.push(`bg${i}`)));
    const read = asInteractive(() => gated.query('SELECT 1 AS one')).then(() => order.push('read'));
    await Promise.all([...background, read]);
    // the first background query already held the line; the read comes right after it
    assert.ok(order.indexOf('read') <= 1, order.join(' '));
  });

  it('a transaction holds the line until it ends, and runs in it', async () => {
    const line = new EmbeddedLine(db);
    const gated = line.gated();
    const seen = await gated.transaction(async (tx) => {
      await tx.query('INSERT INTO written VALUES (-1)');
      return (await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM written WHERE v = -1')).rows[0].n;
    });
    assert.equal(seen, 1);
  });

  it('joins the writes issued together into one statement, each with its own answer, in order', async () => {
    const line = new EmbeddedLine(db);
    const answers = await Promise.all([1, 2, 3, 4, 5].map((v) => line.apply(JSON.stringify({ v }))));
    assert.deepEqual(answers, [10, 20, 30, 40, 50]);
    assert.equal(line.statements, 1, 'one statement for the five');
  });

  it('a write refused in a batch fails alone: the others are written and answered', async () => {
    const line = new EmbeddedLine(db);
    const results = await Promise.allSettled([line.apply('{"v":101}'), line.apply('{"v":102,"fail":true}'), line.apply('{"v":103}')]);
    assert.deepEqual(results.map((r) => r.status), ['fulfilled', 'rejected', 'fulfilled']);
    assert.match(String((results[1] as PromiseRejectedResult).reason?.message), /op 102 refused/);
    const rows = (await db.query<{ v: number }>('SELECT v FROM written WHERE v > 100 ORDER BY v')).rows.map((r) => r.v);
    assert.deepEqual(rows, [101, 103]);
  });
});
