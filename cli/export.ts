/** `stagecraft export RUN [--out FILE]` and `stagecraft import FILE…`: runs as files, with what they ran. */
import { closeSync, openSync, readSync, realpathSync } from 'node:fs';
import { Socket } from 'node:net';
import path from 'node:path';
import { AppAnswerError, StagecraftError, UsageError } from '../lib/kernel/errors';
import { FILE_OPEN, openInside, readOpenedFile } from '../lib/server/open-inside';
import { replaceFile } from '../lib/server/replace-file';
import { exportRun } from '../lib/server/runs/export-run';
import { checkRunExport, importRuns, logDiffers, MAX_IMPORT_BYTES } from '../lib/server/runs/import-runs';
import type { ImportView } from '../lib/views';
import { InputTooLarge, parse } from './args';
import { plural } from '../lib/kernel/plural';
import { unreadable, unwritable } from './fs-words';
import { withHostOrApp } from './store';
import type { Io } from './main';
import type { AppClient } from './through-app';

export async function exportCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(argv, { json: { type: 'boolean' }, out: { type: 'string' } }, { min: 1, max: 1, names: 'one run id' });
  const doc = await withHostOrApp(
    io,
    (host) => exportRun(host, positionals[0]),
    (app) => app.exportRun(positionals[0]),
  );
  const text = `${JSON.stringify(doc, null, 1)}\n`;
  // `--out -` is standard output, as `import -` is standard input (a file named - is `--out ./-`)
  if (values.out === undefined || values.out === '-') {
    io.out(text);
    return 0;
  }
  // written beside the name and renamed over it: a link at that name (code can plant one in a workspace it
  // writes) is replaced, never written through to the file it points at
  try {
    const out = path.resolve(values.out);
    replaceFile(realpathSync(path.dirname(out)), path.basename(out), text, { shown: `--out ${values.out}` });
  } catch (e) {
    if (e instanceof StagecraftError) throw e;
    throw unwritable(`--out ${values.out}`, e);
  }
  const facts = { runId: doc.run.id as string, file: values.out, bytes: Buffer.byteLength(text), sha256: doc.sha256, events: doc.events.length, artifacts: doc.artifacts.length };
  if (values.json) io.out(JSON.stringify(facts));
  else io.out(`run ${facts.runId}: exported to ${values.out} (${plural(facts.events, 'event')}, ${plural(facts.artifacts, 'artifact')}, skill ${doc.skill.name} version ${doc.skill.version.slice(0, 12)})`);
  return 0;
}

export async function importCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(argv, { json: { type: 'boolean' } }, { min: 1, max: Infinity, names: 'exported run files' });
  if (positionals.filter((f) => f === '-').length > 1) throw new UsageError('- (standard input) is named twice: it holds one export.');
  const files = await Promise.all(positionals.map(async (file) => ({ source: file, text: file === '-' ? await readExportStdin(io) : readExportFile(file) })));
  // every file is checked before the store is opened: a bad one is refused at once, and nothing is written
  for (const f of files) checkRunExport(f.text, f.source);
  const r = await withHostOrApp(
    io,
    (host) => importRuns(host, files),
    // through the app that holds the store: each file added by it (POST /api/runs/import), one after the other, as here
    async (app) => {
      const imported: ImportView['imported'] = [];
      for (const f of files) imported.push(...(await importInApp(app, f)).imported);
      return { imported };
    },
  );
  if (values.json) io.out(JSON.stringify(r));
  else for (const i of r.imported) io.out(`run ${i.runId} (${i.skill}, version ${i.version.slice(0, 12)}): ${i.status}`);
  return 0;
}

/**
 * An export file (checked here already) added by the app that holds the store (`import`, `replay FILE`).
 * Its import_conflict names the file as the app had it (an upload): said with the file's name here, as on the store.
 */
export async function importInApp(app: AppClient, f: { source: string; text: string }): Promise<ImportView> {
  try {
    return await app.importRun(f.text);
  } catch (e) {
    const runId = e instanceof AppAnswerError && e.code === 'import_conflict' ? e.details.runId : undefined;
    throw typeof runId === 'string' ? logDiffers(runId, f.source) : e;
  }
}

/**
 * `import -`, `replay -`: the export piped in (`stagecraft export RUN | stagecraft import -`, a file fetched
 * in CI), as a file is read; `command` names the command in what to do when it is empty.
 */
export async function readExportStdin(io: Io, command = 'import'): Promise<string> {
  let text: string;
  try {
    text = await io.stdin(MAX_IMPORT_BYTES);
  } catch (e) {
    if (e instanceof InputTooLarge) throw new UsageError(`the export file - (standard input) is over ${MAX_IMPORT_BYTES / (1024 * 1024)} MB, the most an export may be.`);
    throw e;
  }
  if (text.trim() === '') throw new UsageError(`the export file - (standard input) is empty: pipe an export into it (stagecraft export RUN | stagecraft ${command} -), or name the file.`);
  return text;
}

/**
 * An export file's text, read from what was opened (open-inside.ts): non-blocking (a FIFO at that name,
 * which code can plant in a folder it writes, is refused instead of waiting for a writer for ever), a
 * regular file, and never more than MAX_IMPORT_BYTES + 1 bytes (a file growing after a size check is not
 * read whole). Any place the user names is inside.
 */
export function readExportFile(file: string): string {
  let bytes: Buffer | { size: number } | null;
  try {
    const opened = openInside(file, FILE_OPEN, () => true);
    if (!opened || 'outside' in opened) throw new Error('it changed while it was opened');
    try {
      bytes = readOpenedFile(opened.fd, MAX_IMPORT_BYTES);
    } finally {
      closeSync(opened.fd);
    }
  } catch (e) {
    throw unreadable(`the export file ${file}`, e);
  }
  if (bytes === null) throw new UsageError(`cannot read ${file}: it is not a regular file (an export is one).`);
  if (!Buffer.isBuffer(bytes)) throw new UsageError(`${file} is over ${MAX_IMPORT_BYTES / (1024 * 1024)} MB, the most an export may be.`);
  return bytes.toString('utf8');
}

/**
 * An export read from a pipe the user named: bash's `<(stagecraft export RUN)` (/dev/fd/63) or a FIFO
 * (mkfifo), read to its end as a stream, at most MAX_IMPORT_BYTES (no size to stat: a pipe has none).
 * Opened non-blocking, as a file is, and read once at once: a FIFO no writer holds (one code planted in a
 * folder it wrote) is at its end there, and is said to be empty instead of being waited on for ever.
 */
export async function readExportPipe(file: string): Promise<string> {
  const tooLarge = () => new UsageError(`${file} is over ${MAX_IMPORT_BYTES / (1024 * 1024)} MB, the most an export may be.`);
  const chunks: Buffer[] = [];
  let size = 0;
  let fd: number | undefined;
  try {
    fd = openSync(file, FILE_OPEN);
    // EAGAIN: a writer holds it and has written nothing yet; 0: no writer (or its writer closed it), the end
    const first = Buffer.alloc(64 * 1024);
    let n: number;
    try {
      n = readSync(fd, first, 0, first.length, null);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') throw e;
      n = -1;
    }
    if (n > 0) chunks.push(first.subarray(0, (size = n)));
    if (n !== 0) {
      // the rest through the event loop (a pipe socket, which owns the descriptor from here): it waits for the writer there
      const pipe = new Socket({ fd, readable: true, writable: false });
      fd = undefined;
      try {
        for await (const c of pipe) {
          size += (c as Buffer).length;
          if (size > MAX_IMPORT_BYTES) throw tooLarge();
          chunks.push(c as Buffer);
        }
      } finally {
        pipe.destroy();
      }
    }
  } catch (e) {
    if (e instanceof StagecraftError) throw e;
    throw unreadable(`the export file ${file}`, e);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') {
    throw new UsageError(`the export file ${file} (a pipe) is empty: nothing was written to it, or no writer had it open. Start the writer first (a FIFO), or pipe the export into - (stagecraft export RUN | stagecraft replay -).`);
  }
  return text;
}
