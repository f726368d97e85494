// When an open store's upkeep checks: first a while after open, then every UPKEEP_CHECK_MS; never
// while the line has work (the check waits for the next tick); and not after `stop`.
import assert from 'node:assert/strict';
import { afterEach, describe, it, mock } from 'node:test';
import type { PGlite } from '@electric-sql/pglite';
import { EmbeddedLine } from './embedded-line';
import { keepUp, UPKEEP_CHECK_MS, UPKEEP_FIRST_CHECK_MS, UPKEEP_STATEMENTS, type UpkeepDb } from './embedded-upkeep';

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

  it('skips a check while the line has work, and checks at the next tick', async () => {
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
    mock.timers.tick(UPKEEP_CHECK_MS);
    await settle();
    assert.deepEqual(sent, ['check', ...UPKEEP_STATEMENTS]);
    await upkeep.stop();
  });
});
