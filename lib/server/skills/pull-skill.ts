/**
 * `stagecraft pull NAME [DIR] [--version HASH]`: a version written out to a
 * folder (default `./NAME`), so a skill can live in git as well as in the
 * app. Files of the version are written (replacing what is at their paths);
 * other files already in the folder are left alone and listed, since a later
 * `push` of the folder would include them.
 */
import { existsSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../../kernel/errors';
import type { VersionSummaryView, VersionView } from '../../views';
import type { Host } from '../host';
import { listBundleDir } from './bundle-dir';
import { writeBundleDir } from './write-bundle-dir';
import { versionView } from './views';

/** `extra`: files of the folder not in the version; `isExtraCut`: the folder holds more than was listed */
export type PulledSkill = { dir: string; version: VersionSummaryView; written: string[]; extra: string[]; isExtraCut: boolean };

export async function pullSkill(host: Pick<Host, 'skills'>, name: string, opts: { dir?: string; version?: string; cwd: string }): Promise<PulledSkill> {
  return writePulled(name, versionView(await host.skills.getVersion(name, opts.version)), opts);
}

/**
 * The version `name` named, as the API's view has it (its files with it), written out: what pullSkill
 * does once it has the version — and `stagecraft pull` with the version the app answered.
 */
export function writePulled(name: string, v: VersionView, opts: { dir?: string; cwd: string }): PulledSkill {
  const { files, ...version } = v;
  const dir = path.resolve(opts.cwd, opts.dir ?? name);
  if (existsSync(dir) && !statSync(dir).isDirectory()) throw new UsageError(`${opts.dir ?? name} is a file, not a folder: pull into a folder (new or existing).`);
  const listed = existsSync(dir) ? listBundleDir(dir) : { paths: [], isCut: false };
  const extra = listed.paths.filter((p) => !Object.prototype.hasOwnProperty.call(files, p));
  if (!existsSync(dir)) makeFolders(dir, opts.dir ?? name);
  writeBundleDir(dir, files);
  return { dir, version, written: Object.keys(files).sort(), extra, isExtraCut: listed.isCut };
}

/**
 * `mkdir -p`, one level at a time: node's recursive mkdir spins forever, a core busy, where mkdir
 * answers ENOENT under a folder that exists (`pull NAME /proc/x`); and a folder that cannot be made
 * is said in words, not as node's error.
 */
function makeFolders(dir: string, shown: string): void {
  const missing: string[] = [];
  for (let at = dir; !existsSync(at) && path.dirname(at) !== at; at = path.dirname(at)) missing.unshift(at);
  for (const at of missing) {
    try {
      mkdirSync(at);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') throw new UsageError(`Cannot make the folder ${shown} to pull into (${code} at ${at}): name a folder you can write.`);
    }
  }
}
