/**
 * The read-only copy of a skill version that a run executes from: the bundle
 * written out once per content hash under the host's bundles folder
 * (`<bundlesDir>/<hash>/`), so a run's code, prompts and model script are
 * exactly the version it recorded, whatever happens to the folder or the
 * editor since.
 *
 * Owns: making the copy (beside its place, then renamed in, so a half-written
 * one is never used) and keeping it exact — each time a run starts from it,
 * every file of the version is compared and a changed or missing one is put
 * back. Files are written read-only (0444). Files that are not the version's
 * are left alone (code steps write their run's workspace, never this copy).
 * Does not: confine what code does at run time (the sandbox does), or make
 * workspaces (launch-run.ts does).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import type { BundleFiles } from '../../skill/bundle';
import { writeBundleDir } from './write-bundle-dir';

const READ_ONLY = 0o444;

function sameText(file: string, text: string): boolean {
  try {
    return readFileSync(file, 'utf8') === text;
  } catch {
    return false;
  }
}

/** Puts the version's files in `dir` back as they are in the version; returns how many it had to fix. */
function repair(dir: string, files: BundleFiles): number {
  let fixed = 0;
  for (const [p, text] of Object.entries(files)) {
    const full = path.join(dir, ...p.split('/'));
    if (sameText(full, text)) continue;
    if (existsSync(full)) unlinkSync(full);
    writeBundleDir(dir, { [p]: text }, READ_ONLY);
    fixed++;
  }
  return fixed;
}

/** The folder holding exactly this version's files, made (or mended) now. */
export function materializeVersion(bundlesDir: string, version: { hash: string; files: BundleFiles }): string {
  if (!/^[0-9a-f]{64}$/.test(version.hash)) throw new Error(`not a bundle hash: ${version.hash}`);
  const dir = path.join(bundlesDir, version.hash);
  if (existsSync(dir)) {
    repair(dir, version.files);
    return dir;
  }
  mkdirSync(bundlesDir, { recursive: true });
  const tmp = `${dir}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    writeBundleDir(tmp, version.files, READ_ONLY);
    if (Object.keys(version.files).length === 0) mkdirSync(tmp, { recursive: true });
    renameSync(tmp, dir);
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    // another process made it first: use (and check) theirs
    if (!existsSync(dir)) throw e;
    repair(dir, version.files);
  }
  return dir;
}
