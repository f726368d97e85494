// npx tsx bench/bench-walk.ts DIR... — CPU per measureWorkspace of each folder (the quota walk after every code step)
import { measureWorkspace } from '../lib/sandbox/workspace-usage';
const quota = { maxBytes: 1024 ** 3, maxFiles: 10_000 };
for (const dir of process.argv.slice(2)) {
  const n = 3000;
  for (let i = 0; i < 300; i++) await measureWorkspace(dir, quota);
  const c0 = process.cpuUsage();
  for (let i = 0; i < n; i++) await measureWorkspace(dir, quota);
  const c = process.cpuUsage(c0);
  const u = await measureWorkspace(dir, quota);
  console.log(JSON.stringify({ harness: 'sandbox/walk', dir, files: u.files, cpuUsPerWalk: +((c.user + c.system) / n).toFixed(1), sysUsPerWalk: +(c.system / n).toFixed(1) }));
}
