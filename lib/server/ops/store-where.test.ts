import assert from 'node:assert/strict';
import { test } from 'node:test';
import { storeWhere } from './store-where';

test('the store named as the app uses it: the data dir in use, or the database and server without the password', () => {
  assert.deepEqual(storeWhere({ STAGECRAFT_DATA_DIR: '/srv/sc' }, '/app'), { where: 'the embedded store in /srv/sc', isEmbedded: true });
  assert.deepEqual(storeWhere({ STAGECRAFT_DATA_DIR: 'data' }, '/app'), { where: 'the embedded store in /app/data', isEmbedded: true });
  assert.deepEqual(storeWhere({}, '/app'), { where: 'the embedded store in /app/.stagecraft', isEmbedded: true });
  const pg = storeWhere({ DATABASE_URL: 'postgresql://app:s3cret@db.internal:6543/stage_db?sslmode=require', STAGECRAFT_DATA_DIR: '/srv/sc' }, '/app');
  assert.deepEqual(pg, { where: 'the Postgres database "stage_db" on db.internal:6543', isEmbedded: false });
  assert.doesNotMatch(pg.where, /s3cret|app:/);
  assert.equal(storeWhere({ DATABASE_URL: 'not a url s3cret' }, '/app').where.includes('s3cret'), false);
});
