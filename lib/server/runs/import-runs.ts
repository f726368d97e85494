/**
 * `stagecraft import FILE…`, `POST /api/runs/import`: runs exported by
 * `export` (export-run.ts) written into this store, with the skill version
 * they ran (saved as a version of origin `import`).
 *
 * Every file is checked before anything is written: that it is JSON and a
 * run export, of a format this Stagecraft reads (a newer one is refused by
 * name), and that every hash matches — each part's, the whole file's, the
 * bundle's, each artifact's — so a changed byte is found and named, and
 * nothing of that import is written. The run must have ended, and its log
 * must be whole (events 1..n of this run, from run_started to its end).
 *
 * The version is placed in the skill's history at the run's time, never
 * after the skill's latest: importing a run does not change what the studio
 * opens or what new runs start from.
 *
 * Idempotent: a run already here with the same log is left as it is
 * (`unchanged`); a different run of the same id is never overwritten
 * (ImportConflictError). Importing never runs code: it only writes records
 * (replaying an imported run does run its code, in the sandbox:
 * derived-version.ts).
 */
import { z } from 'zod';
import { ExportInvalidError, ImportConflictError } from '../../kernel/errors';
import { jsonTextDepth } from '../../kernel/json-depth';
import type { Json } from '../../kernel/json';
import { canonicalJson, sha256 } from '../../kernel/memo';
import { EVENT, TERMINAL_EVENTS } from '../../kernel/events';
import { RUN_KINDS, type RunEvent, type RunRecord, type StageTrace, type WorkspaceArtifact } from '../../kernel/ports';
import { isSkillName } from '../../skill/schema';
import { jsonErrorPosition } from '../../skill/text-position';
import { bundleHash } from '../../store/skills';
import { RUN_EXPORT_FORMAT, RUN_EXPORT_VERSION, RunExportView, type ImportView } from '../../views';
import { MAX_JSON_DEPTH } from '../limits';
import type { Host } from '../host';
import { skillMdFacts } from '../skills/skill-text';
import { documentHash, partHash } from './export-run';

/** the largest export accepted (the API's cap, declared with its route; a bundle is at most 5 MB of it) */
export { MAX_IMPORT_BYTES } from '../../api/routes';

const RecordShape = z
  .object({
    id: z.string().min(1).max(200),
    skillName: z.string(),
    skillHash: z.string(),
    skillText: z.string(),
    bundleDir: z.string(),
    input: z.record(z.string(), z.unknown()),
    model: z.string(),
    status: z.enum(['completed', 'failed', 'aborted']),
    output: z.unknown(),
    error: z.record(z.string(), z.unknown()).nullable(),
    report: z.record(z.string(), z.unknown()).nullable(),
    kind: z.enum(RUN_KINDS),
    parentRunId: z.string().nullable(),
    forkPoint: z.string().nullable(),
    createdAt: z.number(),
    updatedAt: z.number(),
  })
  .strict();

const PART_NAMES = {
  run: 'its run record does not match its hash',
  events: 'its events do not match their hash',
  traces: 'its stage traces do not match their hash',
  artifacts: 'its workspace artifacts do not match their hash',
} as const;

export type CheckedExport = { source: string; doc: RunExportView; run: Omit<RunRecord, 'skillVersionId'> };

function invalid(source: string, what: string, details: Record<string, Json> = {}): ExportInvalidError {
  // `what` may end a sentence itself (a question: "… or cut short?"): no full stop after it then
  const end = /[.?!]$/.test(what) ? '' : '.';
  return new ExportInvalidError(`${source}: ${what}${end} Nothing was imported from it.`, { source, ...details });
}

/** Checks one export file's text: JSON, format, shape, every hash, a whole log. Writes nothing. */
export function checkRunExport(text: string, source: string): CheckedExport {
  if (jsonTextDepth(text) > MAX_JSON_DEPTH + 8) throw invalid(source, `it nests arrays or objects deeper than ${MAX_JSON_DEPTH} levels`);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    const at = jsonErrorPosition(text);
    throw invalid(source, `it is not JSON${at ? ` (line ${at.line}, column ${at.column})` : ''}: ${(e as Error).message} — was it changed after export, or cut short?`);
  }
  const r = raw as { format?: unknown; formatVersion?: unknown } | null;
  if (r === null || typeof r !== 'object' || r.format !== RUN_EXPORT_FORMAT) {
    throw invalid(source, `it is not a Stagecraft run export (no "format": "${RUN_EXPORT_FORMAT}"); make one with \`stagecraft export RUN\``);
  }
  if (typeof r.formatVersion !== 'number' || !Number.isInteger(r.formatVersion) || r.formatVersion < 1) throw invalid(source, 'its formatVersion is not a format version (a whole number from 1)');
  if (r.formatVersion > RUN_EXPORT_VERSION) {
    throw invalid(source, `it was written by a newer Stagecraft (export format ${r.formatVersion}; this one reads format ${RUN_EXPORT_VERSION}): import it with that version, or upgrade this one`, { formatVersion: r.formatVersion });
  }
  const parsed = RunExportView.safeParse(raw);
  if (!parsed.success) {
    const i = parsed.error.issues[0];
    throw invalid(source, `it is not a whole run export: ${i.path.join('.') || '(the file)'}: ${i.message}`);
  }
  const doc = parsed.data;
  for (const part of ['run', 'events', 'traces', 'artifacts'] as const) {
    if (partHash(doc[part]) !== doc.hashes[part]) throw invalid(source, `${PART_NAMES[part]} (hashes.${part}): the file was changed after export`, { part });
  }
  if (documentHash(doc) !== doc.sha256) throw invalid(source, 'the file does not match its sha256: it was changed after export');
  if (bundleHash(doc.skill.files) !== doc.skill.version) throw invalid(source, "its skill files do not match the version's hash (skill.version): the file was changed after export");
  for (const a of doc.artifacts as unknown as WorkspaceArtifact[]) {
    const content = typeof a.content === 'string' ? a.content : canonicalJson(a.content);
    if (sha256(content) !== a.sha256) throw invalid(source, `the workspace artifact ${String(a.path)} does not match its sha256: the file was changed after export`, { path: String(a.path) });
  }
  const run = RecordShape.safeParse(doc.run);
  if (!run.success) {
    const i = run.error.issues[0];
    throw invalid(source, `its run record is not one this Stagecraft can keep: run.${i.path.join('.')}: ${i.message}${i.path[0] === 'status' ? ' (only an ended run can be exported)' : ''}`);
  }
  if (run.data.skillName !== doc.skill.name || !isSkillName(doc.skill.name)) throw invalid(source, `its run is of skill ${JSON.stringify(run.data.skillName)}, and its files are of ${JSON.stringify(doc.skill.name)}`);
  requireWholeLog(doc, run.data.id, source);
  return { source, doc, run: run.data as Omit<RunRecord, 'skillVersionId'> };
}

function requireWholeLog(doc: RunExportView, runId: string, source: string): void {
  const events = doc.events as unknown as RunEvent[];
  events.forEach((e, i) => {
    if (e.runId !== runId || e.seq !== i + 1 || typeof e.type !== 'string' || typeof e.at !== 'number' || e.data === null || typeof e.data !== 'object') {
      throw invalid(source, `event ${i + 1} is not event ${i + 1} of run ${runId}`);
    }
  });
  if (events[0]?.type !== EVENT.runStarted || !TERMINAL_EVENTS.has(events[events.length - 1]?.type)) throw invalid(source, `its log does not run from ${EVENT.runStarted} to the run's end`);
  for (const t of doc.traces as unknown as StageTrace[]) if (t.runId !== runId) throw invalid(source, `a stage trace (${String(t.id)}) is not of run ${runId}`);
  for (const a of doc.artifacts as unknown as WorkspaceArtifact[]) if (a.runId !== runId) throw invalid(source, `a workspace artifact (${String(a.path)}) is not of run ${runId}`);
}

/** A run here whose log is not the one in the file `source` names: it is never overwritten. */
export function logDiffers(runId: string, source: string): ImportConflictError {
  return new ImportConflictError(runId, `its log differs from the one in ${source}`);
}

/** Writes one checked export: its version (idempotent), then its run with its whole log in one commit. */
async function writeRun(host: Pick<Host, 'store' | 'skills'>, c: CheckedExport): Promise<ImportView['imported'][number]> {
  const { doc, run } = c;
  const existing = await host.store.getRun(run.id);
  if (existing) {
    if (partHash(await host.store.readEvents(run.id)) !== doc.hashes.events) throw logDiffers(run.id, c.source);
    return { runId: run.id, skill: doc.skill.name, version: doc.skill.version, status: 'unchanged' };
  }
  // in the skill's history at the run's time, and never after what the skill has now: importing a run
  // does not change the version the studio opens and runs start from
  const latest = (await host.skills.getSkill(doc.skill.name))?.latest?.savedAt;
  const saved = await host.skills.saveVersion(doc.skill.name, doc.skill.files, {
    mode: 'record',
    origin: 'import',
    description: skillMdFacts(doc.skill.files['skill.md']).description,
    savedAt: latest === undefined ? run.createdAt : Math.min(run.createdAt, latest - 1),
  });
  await host.store.createRun(
    { ...run, skillVersionId: saved.versionId },
    { events: doc.events as unknown as RunEvent[], traces: doc.traces as unknown as StageTrace[], artifacts: doc.artifacts as unknown as WorkspaceArtifact[] },
  );
  return { runId: run.id, skill: doc.skill.name, version: doc.skill.version, status: 'imported' };
}

/** Imports export files (their texts): all are checked before any is written. */
export async function importRuns(host: Pick<Host, 'store' | 'skills'>, files: { source: string; text: string }[]): Promise<ImportView> {
  const checked = files.map((f) => checkRunExport(f.text, f.source));
  const imported: ImportView['imported'] = [];
  for (const c of checked) imported.push(await writeRun(host, c));
  return { imported };
}
