// The embedded store's data folder removed while the store is open (a cleanup script, `rm -rf` of the
// wrong folder): Postgres answers SQLSTATE 58P01/58P02 on the next table it opens, and every request
// after was a 500 asking for a bug report. It is now the host's files refusing (HostFilesError
// database_files_unusable: a 503 from the API, exit 1 from the CLI), saying what happened and what to do.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, test } from 'node:test';
import { HostFilesError } from '../kernel/errors';
import { hostFilesError } from './host-files';
import { openStore } from './open-store';
import { tempDir } from './testing/pg-test-db';

const dir = tempDir('sc-removed-');
after(() => dir.remove());

test('a data folder removed under an open embedded store: database_files_unusable, saying what to do', async () => {
  const store = await openStore({ dataDir: dir.dir });
  try {
    assert.deepEqual(await store.listRuns({ limit: 1 }), []);
    rmSync(dir.dir, { recursive: true, force: true });
    // tables this process has not opened yet: their files are gone
    const caught = await store.readEvents('run_gone').then(
      () => store.listArtifacts('run_gone'),
    ).then(() => null, (e: unknown) => e);
    assert.ok(caught, 'a read after the folder was removed failed');
    assert.match(String((caught as { code?: unknown }).code), /^58/);
    const said = hostFilesError(caught, dir.dir);
    assert.ok(said instanceof HostFilesError);
    assert.equal(said.code, 'database_files_unusable');
    assert.equal(said.httpStatus, 503);
    assert.match(said.message, /^The database could not use its own files \(58P0[12]: could not (open file|create directory)/);
    assert.match(said.message, /its data folder was removed, moved or damaged while it was open \(this process keeps it under .*sc-removed-.*\)\. On the embedded store, stop this process and start it again/);
  } finally {
    await store.close().catch(() => {});
  }
});
