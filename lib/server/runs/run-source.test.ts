// STAGECRAFT_WORKERS as a process can honour it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryStore } from '../../kernel/memory-store';
import { EMBEDDED_DRIVES_IN_PROCESS, databaseUrlOf, workersSetting } from './run-source';

const postgres = Object.assign(new MemoryStore(), { backend: 'postgres', databaseUrl: 'postgresql://u@h/db' });
const embedded = Object.assign(new MemoryStore(), { backend: 'pglite' });

test('unset is in-process; external on Postgres is external', () => {
  assert.deepEqual(workersSetting({ env: {}, store: postgres }), { mode: 'in-process', notice: null });
  assert.deepEqual(workersSetting({ env: { STAGECRAFT_WORKERS: 'external' }, store: postgres }), { mode: 'external', notice: null });
  assert.deepEqual(workersSetting({ env: { STAGECRAFT_WORKERS: ' in-process ' }, store: postgres }), { mode: 'in-process', notice: null });
  assert.equal(databaseUrlOf({ store: postgres }), 'postgresql://u@h/db');
});

test('the embedded store drives in process, and says so when external is asked for', () => {
  assert.deepEqual(workersSetting({ env: { STAGECRAFT_WORKERS: 'external' }, store: embedded }), { mode: 'in-process', notice: EMBEDDED_DRIVES_IN_PROCESS });
  assert.match(EMBEDDED_DRIVES_IN_PROCESS, /embedded store .* drives its runs in this process/);
  assert.equal(databaseUrlOf({ store: embedded }), null);
});

test('an unknown value is a usage error naming the allowed ones', () => {
  assert.throws(() => workersSetting({ env: { STAGECRAFT_WORKERS: 'threads' }, store: postgres }), /STAGECRAFT_WORKERS=threads: it is one of in-process, external/);
});
