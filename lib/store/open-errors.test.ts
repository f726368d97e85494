import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { unreachable } from './open-errors';

test('a Postgres store that cannot be opened points at the embedded store STAGECRAFT_DATA_DIR names, not a fixed ./.stagecraft', () => {
  const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
  const saved = process.env.STAGECRAFT_DATA_DIR;
  try {
    process.env.STAGECRAFT_DATA_DIR = '/srv/stagecraft-data';
    const e = unreachable('postgresql://app:***@db.internal:5432/stagecraft', refused);
    assert.equal(e.code, 'store_unreachable');
    assert.match(e.message, /^Cannot open the Postgres store at postgresql:\/\/app:\*\*\*@db\.internal:5432\/stagecraft \(ECONNREFUSED: /);
    assert.match(e.message, /unset DATABASE_URL to use the embedded store in \/srv\/stagecraft-data\.$/);
    delete process.env.STAGECRAFT_DATA_DIR;
    assert.match(unreachable('x', refused).message, new RegExp(`embedded store in ${path.resolve('.stagecraft').replace(/[/.]/g, '\\$&')}\\.$`));
  } finally {
    if (saved === undefined) delete process.env.STAGECRAFT_DATA_DIR;
    else process.env.STAGECRAFT_DATA_DIR = saved;
  }
});

test('a Postgres server without the database DATABASE_URL names says to create it (the server is running, the URL is right)', () => {
  const missing = Object.assign(new Error('database "cliwalk_ci" does not exist'), { code: '3D000' });
  const e = unreachable('postgresql://ci:***@db.internal:5433/cliwalk_ci?sslmode=disable', missing, '/srv/data');
  assert.equal(e.code, 'store_unreachable');
  assert.match(e.message, /^Cannot open the Postgres store at .* \(3D000: database "cliwalk_ci" does not exist\)\. Check that the server is running /);
  assert.match(e.message, /embedded store in \/srv\/data\. The server answered, and has no database cliwalk_ci: create it \(`createdb -h db\.internal -p 5433 -U ci cliwalk_ci`\), and Stagecraft makes its tables in it on first use\.$/);
  // only then: a refused connection is not told to create a database
  const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
  assert.doesNotMatch(unreachable('postgresql://postgres@127.0.0.1:1/x', refused).message, /createdb/);
});
