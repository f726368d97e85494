/**
 * `stagecraft export RUN`, `GET /api/runs/<id>/export`: one ended run as one
 * JSON file — a format version; the skill version's files (the whole bundle,
 * named by its bundle hash); the run record and its events, stage traces and
 * workspace artifacts — with content hashes (sha256 of each part's canonical
 * JSON, each artifact's own sha256, and one over the whole file), so an
 * import can tell a file changed since from the run it was (import-runs.ts).
 *
 * The local link to the stored version (`skillVersionId`) is left out: the
 * importing store links its own. `run_skill` children are runs of their own
 * and are not included (a replay answers `run_skill` from the recording).
 */
import { sha256 } from '../../kernel/memo';
import { canonicalJson } from '../../kernel/memo';
import type { JsonObject } from '../../kernel/json';
import { bundleHash } from '../../store/skills';
import { RUN_EXPORT_FORMAT, RUN_EXPORT_VERSION, type RunExportView } from '../../views';
import type { Host } from '../host';
import { endedRun } from './derived-version';

/** sha256 of a part's canonical JSON (sorted keys): the same whatever its key order in the file */
export const partHash = (part: unknown): string => sha256(canonicalJson(part));

/** what the file's `sha256` covers: everything but that field */
export function documentHash(doc: Omit<RunExportView, 'sha256'> & { sha256?: string }): string {
  const { sha256: _own, ...rest } = doc;
  return partHash(rest);
}

export const exportFileName = (runId: string): string => `${runId.replace(/[^A-Za-z0-9._-]/g, '_')}.json`;

export async function exportRun(host: Pick<Host, 'store' | 'skills'>, runId: string): Promise<RunExportView> {
  const run = await endedRun(host, runId);
  const version = run.skillVersionId ? await host.skills.getVersionById(run.skillVersionId) : null;
  // a run recorded before versions held bundles: its skill.md is all there is
  const files = version?.files ?? { 'skill.md': run.skillText };
  const [events, traces, artifacts] = await Promise.all([host.store.readEvents(runId), host.store.readTraces(runId), host.store.listArtifacts(runId)]);
  const { skillVersionId: _local, ...record } = run;
  const doc: Omit<RunExportView, 'sha256'> = {
    format: RUN_EXPORT_FORMAT,
    formatVersion: RUN_EXPORT_VERSION,
    exportedAt: Date.now(),
    skill: { name: run.skillName, version: bundleHash(files), files },
    run: record as unknown as JsonObject,
    events: events as unknown as JsonObject[],
    traces: traces as unknown as JsonObject[],
    artifacts: artifacts as unknown as JsonObject[],
    hashes: { run: partHash(record), events: partHash(events), traces: partHash(traces), artifacts: partHash(artifacts) },
  };
  return { ...doc, sha256: documentHash(doc) };
}
