// What the machine's files refused, told from a bug (host-files.ts): node's own errors, a real one
// from /dev/full (ENOSPC, as a full disk gives), Postgres's disk full, and what is not one.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { test } from 'node:test';
import { HostFilesError } from '../kernel/errors';
import { hostFilesError } from './host-files';

/** the error `fn` throws */
function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  assert.fail('it did not throw');
}
/** an error of node's shape for a file call (code, syscall, path), as fs throws them */
const fsError = (code: string, syscall: string, path?: string) => Object.assign(new Error(`${code}: …, ${syscall}${path ? ` '${path}'` : ''}`), { code, syscall, ...(path ? { path } : {}) });

test('a full disk (a real ENOSPC from /dev/full) is disk_full, saying where this process writes and what to do', () => {
  const e = hostFilesError(thrown(() => writeFileSync('/dev/full', 'x')), '/srv/stagecraft');
  assert.ok(e instanceof HostFilesError);
  assert.equal(e.code, 'disk_full');
  assert.equal(e.httpStatus, 503);
  assert.equal(e.message, 'No space left on the device (ENOSPC in write; this process writes under /srv/stagecraft). Free space on that disk (or give STAGECRAFT_DATA_DIR a folder on a disk with room), then try again.');
});

test('each refusal of the files says its kind and the file, wrapped or not', () => {
  const cases: [unknown, string, RegExp][] = [
    [fsError('EDQUOT', 'open', '/q/f'), 'disk_full', /^No space left on the device \(EDQUOT in open \/q\/f\)/],
    [fsError('EROFS', 'mkdir', '/ro/data'), 'files_read_only', /^A read-only file system \(EROFS in mkdir \/ro\/data\)\. Give STAGECRAFT_DATA_DIR/],
    [fsError('EACCES', 'open', '/root/x'), 'files_permission_denied', /^Permission denied \(EACCES in open \/root\/x\)\. Give this user \(uid \d+\) access/],
    [Object.assign(fsError('EPERM', 'rename', '/a'), { dest: '/b' }), 'files_permission_denied', /\(EPERM in rename \/a to \/b\)/],
    [fsError('EMFILE', 'open', '/d/f'), 'too_many_open_files', /^Too many open files \(EMFILE in open \/d\/f\)\. Raise the limit \(ulimit -n\)/],
    [new Error('wrapped', { cause: fsError('ENOSPC', 'write') }), 'disk_full', /^No space left on the device \(ENOSPC in write\)\./],
    [Object.assign(new Error('could not extend file "base/5/16384": No space left on device'), { code: '53100' }), 'disk_full', /^The database could not write: its disk is full \(53100: could not extend file/],
  ];
  for (const [error, code, said] of cases) {
    const e = hostFilesError(error);
    assert.equal(e?.code, code, String(error));
    assert.match(e!.message, said);
  }
});

test('what is not the files refusing stays as it was: a kill, a spawn, a socket, a bug', () => {
  for (const e of [
    Object.assign(new Error('kill EPERM'), { code: 'EPERM', syscall: 'kill' }),
    Object.assign(new Error('spawn python3 EACCES'), { code: 'EACCES', syscall: 'spawn python3', path: 'python3' }),
    Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED', syscall: 'connect' }),
    fsError('ENOENT', 'open', '/nope'),
    new TypeError('x is not a function'),
    'a string',
    null,
  ]) {
    assert.equal(hostFilesError(e), null, String(e));
  }
});
