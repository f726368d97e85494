#!/usr/bin/env node
// Builds the embedded database template (lib/store/embedded-template.ts) so that the first
// data dir of this install is a copy instead of a PGlite initdb. Runs as part of `postinstall`;
// best effort: without a template every fresh data dir runs initdb, as before, so a failure
// here warns and never fails the install.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const code = `
  const { ensureTemplate } = await import('./lib/store/embedded-template.ts');
  const t0 = performance.now();
  const t = await ensureTemplate();
  console.log('db:template: ' + path.relative(process.cwd(), t.dir) + ' (' + Math.round(performance.now() - t0) + ' ms)');
`;
const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', `import path from 'node:path';${code}`], {
  cwd: root,
  stdio: 'inherit',
});
if (r.status !== 0) console.warn('db:template: could not build the embedded database template; fresh data dirs will run initdb instead');
