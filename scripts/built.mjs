// Loads a compiled entry of dist/ (scripts/build-cli.mjs), for bin/stagecraft.mjs and scripts/start.mjs.
// A build missing, or older than any source it was made from (size or mtime differ: an edit, a
// checkout), is rebuilt first — about a second — so a checkout never runs stale code; when that
// fails (esbuild absent, a read-only install) the error says what to run.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const manifestPath = path.join(root, 'dist', 'manifest.json');

/** the current build's folder, or null when there is none or a source changed since it was made */
function currentBuild() {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  } catch {
    return null;
  }
  for (const s of manifest.sources) {
    let st;
    try {
      st = statSync(path.join(root, s.file));
    } catch {
      return null;
    }
    if (st.size !== s.size || st.mtimeMs !== s.mtimeMs) return null;
  }
  return manifest.build;
}

/** import dist/<build>/<entry>.mjs, building it first when it is missing or stale */
export async function importBuilt(entry) {
  let build = currentBuild();
  if (!build) {
    if (process.stderr.isTTY) process.stderr.write('stagecraft: compiling the command into dist/ (the sources changed)…\n');
    try {
      const { buildCli } = await import('./build-cli.mjs');
      build = await buildCli({ quiet: true });
    } catch (e) {
      process.stderr.write(`stagecraft: dist/ is missing or older than the sources, and rebuilding it failed: ${e instanceof Error ? e.message : String(e)}\n  ${e?.hint ?? `Run \`npm run build:cli\` in ${root}.`}\n`);
      process.exit(1);
    }
  }
  return import(pathToFileURL(path.join(root, 'dist', build, `${entry}.mjs`)).href);
}
