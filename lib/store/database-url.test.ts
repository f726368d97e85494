// DATABASE_URL's shape (database-url.ts): a value that is no Postgres URL is said as such, before any
// connection is tried (it was tried as a host name: "getaddrinfo ENOTFOUND base"), never repeating it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { databaseUrlProblem } from './database-url';
import { startSettingsProblems } from '../server/app/start-settings';

test('a Postgres URL passes; anything else says what DATABASE_URL takes, and never the value', () => {
  for (const ok of ['postgresql://postgres@127.0.0.1:5432/x', 'postgres://u:p@db/x?sslmode=require']) assert.equal(databaseUrlProblem(ok), null, ok);
  assert.equal(
    databaseUrlProblem('notaurl s3cret', '/app/.stagecraft'),
    'DATABASE_URL is not a URL: give a Postgres URL (postgresql://USER[:PASSWORD]@HOST[:PORT]/DATABASE), or unset DATABASE_URL to use the embedded store in /app/.stagecraft.',
  );
  assert.equal(
    databaseUrlProblem('mysql://root:s3cret@db/x'),
    'DATABASE_URL is not a Postgres URL (its scheme is mysql:): give postgresql://USER[:PASSWORD]@HOST[:PORT]/DATABASE, or unset DATABASE_URL to use the embedded store.',
  );
});

test('the app refuses to start on it, and the CLI says it in one line, exit 2, without trying to connect', async () => {
  assert.deepEqual(await startSettingsProblems({ DATABASE_URL: 'http://db/x' }), [
    'DATABASE_URL is not a Postgres URL (its scheme is http:): give postgresql://USER[:PASSWORD]@HOST[:PORT]/DATABASE, or unset DATABASE_URL to use the embedded store.',
  ]);
  const r = spawnSync(process.execPath, ['bin/stagecraft.mjs', 'runs'], { encoding: 'utf8', env: { ...process.env, DATABASE_URL: 'notaurl' } });
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr, /^stagecraft: DATABASE_URL is not a URL: give a Postgres URL \(postgresql:\/\/USER\[:PASSWORD\]@HOST\[:PORT\]\/DATABASE\), or unset DATABASE_URL to use the embedded store in \/.+\.\n$/);
});
