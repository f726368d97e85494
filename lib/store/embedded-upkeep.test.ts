// When an open store's upkeep checks: first a while after open, then every UPKEEP_CHECK_MS; never
// while the line has work (the check is tried again UPKEEP_BUSY_RETRY_MS later); and not after
// `stop`, which waits for the statement under way and sends none after it.
import assert from 'node:assert/strict';
import { afterEach, describe, it, mock } from 'node:test';
import type { PGlite } from '@electric-sql/pglite';
import { EmbeddedLine } from './embedded-line';
import { keepUp, UPKEEP_BUSY_RETRY_MS, UPKEEP_CHECK_MS, UPKEEP_FIRST_CHECK_MS, UPKEEP_STATEMENTS, type UpkeepDb } from './embedded-upkeep';

/** a database whose check always finds the upkeep due, recording what it is sent */
function fakeDb() {
  const sent: string[] = [];
  const db: UpkeepDb = {
    query: async () => (sent.push('check'), { rows: [{ due: true }] }),
    exec: async (text) => void sent.push(text),
  };
  return { db, sent };
}

const settle = async () => {
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
};

describe('keepUp', () => {
  afterEach(() => mock.timers.reset());

  it('checks first UPKEEP_FIRST_CHECK_MS after open, then every UPKEEP_CHECK_MS, and not after stop', async () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    const { db, sent } = fakeDb();
    const upkeep = keepUp(new EmbeddedLine({} as PGlite), db);
    mock.timers.tick(UPKEEP_FIRST_CHECK_MS - 1);
    await settle();
    assert.deepEqual(sent, [], 'checked before the first check was due: start-up would pay for it');
    mock.timers.tick(1);
    await settle();
    assert.deepEqual(sent, ['check', ...UPKEEP_STATEMENTS]);
    mock.timers.tick(UPKEEP_CHECK_MS);
    await settle();
    assert.equal(sent.filter((s) => s === 'check').length, 2);
    await upkeep.stop();
    mock.timers.tick(UPKEEP_CHECK_MS * 3);
    await settle();
    assert.equal(sent.filter((s) => s === 'check').length, 2);
  });

  it('skips a check while the line has work, and asks again UPKEEP_BUSY_RETRY_MS later, not a whole UPKEEP_CHECK_MS', async () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    const { db, sent } = fakeDb();
    const line = new EmbeddedLine({} as PGlite);
    const upkeep = keepUp(line, db);
    let release = () => {};
    const held = line.use(() => new Promise<void>((r) => (release = r)));
    mock.timers.tick(UPKEEP_FIRST_CHECK_MS);
    await settle();
    assert.deepEqual(sent, [], 'checked while a use held the line');
    release();
    await held;
    await settle();
    mock.timers.tick(UPKEEP_BUSY_RETRY_MS);
    await settle();
    assert.deepEqual(sent, ['check', ...UPKEEP_STATEMENTS]);
    await upkeep.stop();
  });

  it('stop during an upkeep waits for the statement under way and sends no other', async () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    const sent: string[] = [];
    let finish = () => {};
    const db: UpkeepDb = {
      query: async () => (sent.push('check'), { rows: [{ due: true }] }),
      exec: (text) => (sent.push(text), new Promise<void>((r) => (finish = r))),
    };
    const upkeep = keepUp(new EmbeddedLine({} as PGlite), db);
    mock.timers.tick(UPKEEP_FIRST_CHECK_MS);
    await settle();
    assert.deepEqual(sent, ['check', UPKEEP_STATEMENTS[0]]);
    let stoppedAt = false;
    const stopping = upkeep.stop().then(() => (stoppedAt = true));
    await settle();
    assert.equal(stoppedAt, false, 'stop returned while a statement held the database');
    finish();
    await stopping;
    assert.deepEqual(sent, ['check', UPKEEP_STATEMENTS[0]], 'a closing store was sent the rest of the upkeep');
  });

  it('a failed upkeep is reported, and a reporter that throws leaves the checks going', async () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    const seen: string[] = [];
    let checks = 0;
    const db: UpkeepDb = {
      query: async () => (checks++, { rows: [{ due: true }] }),
      exec: async () => {
        throw new Error('disk full');
      },
    };
    const upkeep = keepUp(new EmbeddedLine({} as PGlite), db, (e) => {
      seen.push((e as Error).message);
      throw new Error('reporter broke');
    });
    mock.timers.tick(UPKEEP_FIRST_CHECK_MS);
    await settle();
    mock.timers.tick(UPKEEP_CHECK_MS);
    await settle();
    assert.deepEqual(seen, ['disk full', 'disk full']);
    assert.equal(checks, 2);
    await upkeep.stop();
  });
});
