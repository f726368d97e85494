/**
 * `npm run bench:spawn`: what starting a sandbox worker costs the event loop of a big process, forked
 * from it directly vs launched by the spawner (lib/sandbox/spawner.ts), in the same process, the same
 * run. The process first holds BALLAST_MB of touched memory, as the app's server does under load
 * (a fork copies the page tables of all of it). Each spawn is a fresh sandbox's first call (as each
 * run's first code step is); the event loop's worst delay during each is its block (on a loaded
 * machine, preemption adds to it: loadAvg is printed), and this process's CPU time during each
 * (user + system: a fork's page-table copy is system time here) is what the spawn cost it. Then the warm
 * round trip of one worker, both ways. And, apart from the sandbox, the bare launch of `/bin/true`:
 * how long the launching call holds the thread (`syncMs`: for a fork, its whole block). Prints one JSON line.
 *   --tiny (or BENCH_TINY=1): small ballast, few spawns (as `npm test` runs it)
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createCodeSandbox } from '../lib/sandbox';
import { startSpawner, stopSpawner } from '../lib/sandbox/spawner';
import { spawnDirect, type WorkerChild } from '../lib/sandbox/worker-child';
import { COMPILED } from './compiled';

const tiny = process.argv.includes('--tiny') || process.env.BENCH_TINY === '1';
const BALLAST_MB = tiny ? 64 : 480;
const SPAWNS = tiny ? 3 : 20;
const WARM_CALLS = tiny ? 20 : 300;

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))] : 0;
};
const round = (x: number) => Math.round(x * 100) / 100;

// touched memory: heap objects and buffers, as a server holding a store, bundles and caches
const ballast: unknown[] = [];
for (let mb = 0; mb < BALLAST_MB; mb += 8) ballast.push(Buffer.alloc(8 * 1024 * 1024, mb & 0xff), Array.from({ length: 2000 }, (_, i) => ({ i, s: `v${i}` })));

const dir = await mkdtemp(path.join(os.tmpdir(), 'stagecraft-bench-spawn-'));
const mod = path.join(dir, 'step.mjs');
await writeFile(mod, 'export function echo(v) { return { n: v.n + 1 }; }\n');
const call = (n: number) => ({ language: 'node' as const, modulePath: mod, exportName: 'echo', input: { n }, timeoutMs: 30_000 });

async function measure(): Promise<{ blockMsP50: number; blockMsP95: number; blockMsMax: number; cpuMsP50: number; coldMsP50: number; warmMsPerCall: number }> {
  const blocks: number[] = [];
  const colds: number[] = [];
  const cpus: number[] = [];
  const h = monitorEventLoopDelay({ resolution: 1 });
  h.enable();
  for (let i = 0; i < SPAWNS; i++) {
    const sandbox = createCodeSandbox();
    h.reset();
    const t = performance.now();
    const cpu = process.cpuUsage();
    await sandbox.call(call(i));
    const used = process.cpuUsage(cpu);
    colds.push(performance.now() - t);
    blocks.push(h.max / 1e6);
    cpus.push((used.user + used.system) / 1000);
    await sandbox.close();
  }
  h.disable();
  const sandbox = createCodeSandbox();
  for (let i = 0; i < 20; i++) await sandbox.call(call(i));
  const t = performance.now();
  for (let i = 0; i < WARM_CALLS; i++) await sandbox.call(call(i));
  const warmMsPerCall = (performance.now() - t) / WARM_CALLS;
  await sandbox.close();
  return { blockMsP50: round(quantile(blocks, 0.5)), blockMsP95: round(quantile(blocks, 0.95)), blockMsMax: round(Math.max(...blocks)), cpuMsP50: round(quantile(cpus, 0.5)), coldMsP50: round(quantile(colds, 0.5)), warmMsPerCall: round(warmMsPerCall) };
}

/** How long launching `/bin/true` holds this thread (the synchronous call: for a fork, the whole block), and until it has exited. */
async function launchCost(launch: () => WorkerChild): Promise<{ syncMsP50: number; syncMsMax: number }> {
  const syncs: number[] = [];
  for (let i = 0; i < SPAWNS; i++) {
    const t = performance.now();
    const child = launch();
    syncs.push(performance.now() - t);
    await new Promise<void>((resolve) => child.onEnd(() => resolve()));
  }
  return { syncMsP50: round(quantile(syncs, 0.5)), syncMsMax: round(Math.max(...syncs)) };
}
const TRUE = { command: '/bin/true', args: [], env: {}, cwd: '/' };

try {
  const rssMb = Math.round(process.memoryUsage().rss / 1024 / 1024);
  const directLaunch = await launchCost(() => spawnDirect(TRUE));
  const direct = await measure();
  const s = await startSpawner();
  const spawnerLaunch = await launchCost(() => s.spawn(TRUE));
  const spawner = await measure();
  await stopSpawner();
  console.log(
    JSON.stringify({
      bench: 'spawn',
      tiny,
      compiled: COMPILED,
      rssMb,
      spawns: SPAWNS,
      direct: { ...directLaunch, ...direct },
      spawner: { ...spawnerLaunch, ...spawner },
      syncP50Ratio: round(spawnerLaunch.syncMsP50 / Math.max(0.001, directLaunch.syncMsP50)),
      blockP50Ratio: round(spawner.blockMsP50 / Math.max(0.01, direct.blockMsP50)),
      cpuP50Ratio: round(spawner.cpuMsP50 / Math.max(0.01, direct.cpuMsP50)),
      warmRatio: round(spawner.warmMsPerCall / Math.max(0.01, direct.warmMsPerCall)),
      loadAvg: os.loadavg().map(round),
    }),
  );
} finally {
  ballast.length = 0;
  await rm(dir, { recursive: true, force: true });
}
