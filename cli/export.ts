/** `stagecraft export RUN [--out FILE]` and `stagecraft import FILE…`: runs as files, with what they ran. */
import { readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { StagecraftError, UsageError } from '../lib/kernel/errors';
import { replaceFile } from '../lib/server/replace-file';
import { exportRun } from '../lib/server/runs/export-run';
import { checkRunExport, importRuns, MAX_IMPORT_BYTES } from '../lib/server/runs/import-runs';
import { parse } from './args';
import { withHost } from './store';
import type { Io } from './main';

export async function exportCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(argv, { json: { type: 'boolean' }, out: { type: 'string' } }, { min: 1, max: 1, names: 'one run id' });
  return withHost(async (host) => {
    const doc = await exportRun(host, positionals[0]);
    const text = `${JSON.stringify(doc, null, 1)}\n`;
    if (values.out === undefined) {
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
      throw new UsageError(`cannot write --out ${values.out}: ${(e as Error).message}`);
    }
    const facts = { runId: doc.run.id as string, file: values.out, bytes: Buffer.byteLength(text), sha256: doc.sha256, events: doc.events.length, artifacts: doc.artifacts.length };
    if (values.json) io.out(JSON.stringify(facts));
    else io.out(`run ${facts.runId}: exported to ${values.out} (${facts.events} events, ${facts.artifacts} artifacts, skill ${doc.skill.name} version ${doc.skill.version.slice(0, 12)})`);
    return 0;
  });
}

export async function importCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(argv, { json: { type: 'boolean' } }, { min: 1, max: Infinity, names: 'exported run files' });
  const files = positionals.map((file) => {
    try {
      if (statSync(file).size > MAX_IMPORT_BYTES) throw new UsageError(`${file} is over ${MAX_IMPORT_BYTES / (1024 * 1024)} MB, the most an export may be.`);
      return { source: file, text: readFileSync(file, 'utf8') };
    } catch (e) {
      if (e instanceof UsageError) throw e;
      throw new UsageError(`cannot read ${file}: ${(e as Error).message}`);
    }
  });
  // every file is checked before the store is opened: a bad one is refused at once, and nothing is written
  for (const f of files) checkRunExport(f.text, f.source);
  return withHost(async (host) => {
    const r = await importRuns(host, files);
    if (values.json) io.out(JSON.stringify(r));
    else for (const i of r.imported) io.out(`run ${i.runId} (${i.skill}, version ${i.version.slice(0, 12)}): ${i.status}`);
    return 0;
  });
}
