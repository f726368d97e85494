/**
 * Telling "this machine's files refused" apart from a bug, where an error reaches a command's or a
 * request's end: node's file-system errors (ENOSPC, EDQUOT, EROFS, EACCES, EPERM, EMFILE, ENFILE, with
 * their syscall), a Postgres that cannot write (SQLSTATE 53100, disk full: the embedded store's
 * too) and one whose own files went missing under it (class 58: a data folder removed while open). The CLI said `internal error` with a stack trace for a full disk, and the API a 500 asking for
 * a bug report; both now say what happened, where, and what to do (HostFilesError).
 *
 * Owns: the classification and the words. Does not: catch or retry anything (cli/main.ts and
 * lib/server/http/route.ts ask, at their ends), or say a lost connection (connection-errors.ts).
 */
import { HostFilesError } from '../kernel/errors';

type Errno = { code?: unknown; syscall?: unknown; path?: unknown; dest?: unknown; message?: unknown; cause?: unknown };

/** What to do, by errno code; `how`: the errno, the call and its file (and where this process writes) */
function sayFiles(code: string, how: string): HostFilesError | null {
  switch (code) {
    case 'ENOSPC':
    case 'EDQUOT':
      return new HostFilesError('disk_full', `No space left on the device (${how}). Free space on that disk (or give STAGECRAFT_DATA_DIR a folder on a disk with room), then try again.`, { errno: code });
    case 'EROFS':
      return new HostFilesError('files_read_only', `A read-only file system (${how}). Give STAGECRAFT_DATA_DIR a folder this process can write, then try again.`, { errno: code });
    case 'EACCES':
    case 'EPERM':
      return new HostFilesError(
        'files_permission_denied',
        `Permission denied (${how}). Give this user (uid ${process.getuid?.() ?? '?'}) access to it, or STAGECRAFT_DATA_DIR a folder it owns, then try again.`,
        { errno: code },
      );
    case 'EMFILE':
    case 'ENFILE':
      return new HostFilesError('too_many_open_files', `Too many open files (${how}). Raise the limit (ulimit -n), or run fewer runs at once (STAGECRAFT_MAX_RUNS), then try again.`, { errno: code });
    default:
      return null;
  }
}

/**
 * `e` (or an error it wraps) as the HostFilesError it is, or null when it is not one: a node
 * file-system error with its syscall (EPERM from kill() names no file: not one), or Postgres's disk
 * full. `where`: the folder this process writes under, named in the message.
 */
export function hostFilesError(e: unknown, where?: string, depth = 0): HostFilesError | null {
  if (e === null || typeof e !== 'object' || depth > 5) return null;
  if (e instanceof HostFilesError) return e;
  const o = e as Errno;
  const code = typeof o.code === 'string' ? o.code : '';
  if (code === '53100') {
    const said = typeof o.message === 'string' ? o.message : 'disk full';
    return new HostFilesError('disk_full', `The database could not write: its disk is full (53100: ${said}). Free space on the database's disk, then try again.`, { errno: code });
  }
  // class 58, a system error: the database's own files went missing or unusable under it (its data
  // folder removed or moved while it was open: 58P01 could not open file, 58P02 could not create
  // directory, 58030 an I/O error). Every request failed with a 500 asking for a bug report
  if (/^58(000|030|P01|P02)$/.test(code)) {
    const said = typeof o.message === 'string' ? o.message : 'its files are gone';
    return new HostFilesError(
      'database_files_unusable',
      `The database could not use its own files (${code}: ${said}): its data folder was removed, moved or damaged while it was open${where ? ` (this process keeps it under ${where})` : ''}. On the embedded store, stop this process and start it again — a removed data folder starts empty, so put it back first if its runs matter; on a Postgres server (DATABASE_URL), check its disk and its log.`,
      { errno: code },
    );
  }
  const isFileCall = typeof o.syscall === 'string' && o.syscall !== 'kill' && !o.syscall.startsWith('spawn') && !o.syscall.startsWith('connect');
  if (isFileCall) {
    const file = typeof o.path === 'string' ? ` ${o.path}${typeof o.dest === 'string' ? ` to ${o.dest}` : ''}` : '';
    const said = sayFiles(code, `${code} in ${o.syscall}${file}${where ? `; this process writes under ${where}` : ''}`);
    if (said) return said;
  }
  return hostFilesError(o.cause, where, depth + 1);
}
