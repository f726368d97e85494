/**
 * Where bench:store's main thread spends its CPU, by what the code is doing: a `perf script` of
 * the compiled bench (its functions named by `--perf-basic-prof`, interpreted ones too by
 * `--interpreted-frames-native-stack`), each sample put in the first category of CATEGORIES that
 * any frame of its stack belongs to, a frame's module found in the compiled bundle by the
 * `// lib/…` line esbuild writes above each module's code.
 *
 * perf's samples are CPU samples (cpu-clock, while the thread runs), where a .cpuprofile's are
 * ticks of wall time: a thread preempted on a loaded machine, or in a write that wakes the
 * reader, is charged to the JavaScript that made the syscall there (a sandbox worker's request
 * looked 3× as costly as its CPU). So this reads perf's.
 *
 *   OURS=$(node bench/run-compiled.mjs --print bench/bench-store.ts)
 *   node --perf-basic-prof --interpreted-frames-native-stack $OURS --mode many --workflows 3000 --steps 5 \
 *     --concurrency 8 --kind pure --warm 200 &
 *   sleep 6; perf record -F 4000 -g -t <its pid> -o perf.data -- sleep 8   # the main thread, at steady state
 *   perf script -i perf.data > perf.txt
 *   node bench/run-compiled.mjs bench/cpu-breakdown.ts perf.txt $(dirname $OURS) [main-thread CPU ms per run] [--functions N]
 *
 * `--functions N`: under each category, its N functions with the most samples — each sample counted
 * for the innermost function of ours on its stack (the bundle's `module fn`), or its leaf where it has
 * none (pg's, node's, native). A function is named by perf's map of the JIT's code, which names an
 * address by the first code put there: code freed and its address reused (V8 moves and flushes code)
 * keeps the first name, so a name in an odd place (pg's getStreamFuncs between node's socket write
 * frames) is some other code's — cross-check a function's share with a .cpuprofile (V8 names its own
 * samples) before cutting it.
 *
 * Prints each category's share of the samples, and with a CPU figure per run (the bench line's
 * nodeMainCpuMs / workflows) its ms per run, and how much of it is in the OS kernel (syscalls,
 * page faults). A category is what its frames do, whoever called them: the store's encoding
 * called from a commit lane is `encode`, not `lanes`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export type Frame = { module: string; fn: string };

/** For each compiled file of `dir` (`*.mjs`), the source module of each of its lines (0-based). */
export function moduleLines(dir: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const f of readdirSync(dir).filter((f) => f.endsWith('.mjs'))) {
    let current = f;
    out.set(
      f,
      readFileSync(path.join(dir, f), 'utf8')
        .split('\n')
        .map((line) => {
          const m = /^\/\/ ((?:lib|bench|cli|scripts|vendored)[^ ]*)$/.exec(line);
          if (m) current = m[1];
          return current;
        }),
    );
  }
  return out;
}

/** A frame of perf's: a JavaScript function of the bench's bundle (its module), of pg, of node, or native code. */
export function frameOf(symbol: string, lines: Map<string, string[]>): Frame {
  const m = /^JS:[~^*+]?(\S*) (\S+):(\d+):\d+/.exec(symbol);
  if (!m) return { module: '(native)', fn: symbol };
  const [, fn, url, line] = m;
  const file = url.split('/').pop()!;
  const compiled = lines.get(file);
  if (compiled && url.includes('.bench-build')) return { module: compiled[Number(line) - 1] ?? file, fn };
  if (url.includes('node_modules/pg')) return { module: 'pg', fn };
  return { module: url.startsWith('node:') ? url : '(other)', fn };
}

const isIn = (prefix: string) => (f: Frame) => f.module.startsWith(prefix);

/** First match wins: a sample whose stack has a sandbox frame is the sandbox's, whatever called it. */
export const CATEGORIES: [string, (f: Frame) => boolean][] = [
  ['sandbox call (lib/sandbox)', isIn('lib/sandbox/')],
  ['report (deriveReport)', isIn('lib/kernel/report.ts')],
  ['encode for the wire (wire.ts)', isIn('lib/store/wire.ts')],
  ['commit lanes + pg driver', (f) => f.module === 'lib/store/commit-lanes.ts' || f.module === 'pg' || f.module === 'lib/store/open-postgres.ts'],
  ['claim (claims.ts)', isIn('lib/store/claims.ts')],
  ['store port (prisma-store, commit-route)', isIn('lib/store/')],
  ['memo keys (memo.ts)', isIn('lib/kernel/memo.ts')],
  ['size checks (value-size.ts)', isIn('lib/kernel/value-size.ts')],
  ['run end (runner end)', (f) => f.module === 'lib/kernel/runner.ts' && f.fn === 'end'],
  ['run creation (runner newRun, startRun, create)', (f) => f.module === 'lib/kernel/runner.ts' && ['newRun', 'startRun', 'startDeferred', 'create', 'programOf'].includes(f.fn)],
  ['journal (journal.ts)', isIn('lib/kernel/journal.ts')],
  ['model turn, phases (phase-runner, models)', (f) => f.module === 'lib/kernel/phase-runner.ts' || f.module.startsWith('lib/models/')],
  ['steps (processors, step.ts)', (f) => ['lib/kernel/processors.ts', 'lib/kernel/step.ts', 'lib/kernel/processor-steps.ts'].includes(f.module)],
  ['other kernel', isIn('lib/kernel/')],
  ['bench harness', isIn('bench/')],
];
const GC = /Heap::|Scavenge|MarkCompact|Sweeper|GarbageCollect/;

/** `functions`: the category's samples by function (see the header's `--functions`) */
export type Share = { category: string; samples: number; inKernel: number; functions: Map<string, number> };

/** the innermost function of ours on a stack (its module and name), or its leaf */
function functionOf(parsed: Frame[]): string {
  const ours = parsed.find((f) => /^(lib|bench|cli|scripts|vendored)\//.test(f.module));
  const f = ours ?? parsed[0];
  return f.module === '(native)' ? f.fn : `${f.module} ${f.fn || '(anonymous)'}`;
}

/** `perf script` text → samples per category (most first), and how many of each were in the OS kernel. */
export function breakdown(perfText: string, lines: Map<string, string[]>): { total: number; shares: Share[] } {
  const by = new Map<string, Share>();
  let total = 0;
  for (const block of perfText.split('\n\n')) {
    // a sample: its header line, then one `addr symbol (dso)` line per frame, the leaf first
    const frames = block
      .split('\n')
      .slice(1)
      .map((l) => /^\s*[0-9a-f]+ (.*) \(([^)]*)\)$/.exec(l))
      .filter((m): m is RegExpExecArray => m !== null);
    if (!frames.length) continue;
    total++;
    const parsed = frames.map((m) => frameOf(m[1].replace(/\+0x[0-9a-f]+$/, ''), lines));
    const category =
      CATEGORIES.find(([, has]) => parsed.some(has))?.[0] ??
      (parsed.some((f) => f.module === '(native)' && GC.test(f.fn)) ? 'GC' : 'node: event loop, streams, promises');
    const share = by.get(category) ?? { category, samples: 0, inKernel: 0, functions: new Map<string, number>() };
    share.samples++;
    const fn = functionOf(parsed);
    share.functions.set(fn, (share.functions.get(fn) ?? 0) + 1);
    if (frames[0][2].includes('kernel')) share.inKernel++;
    by.set(category, share);
  }
  return { total, shares: [...by.values()].sort((a, b) => b.samples - a.samples) };
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('cpu-breakdown.mjs')) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--functions');
  const topFunctions = at < 0 ? 0 : Number(args.splice(at, 2)[1]);
  const [perfFile, bundleDir, perRun] = args;
  if (!perfFile || !bundleDir) {
    process.stderr.write('usage: cpu-breakdown PERF_SCRIPT_TEXT BUNDLE_DIR [main-thread CPU ms per run] [--functions N] (see the header of bench/cpu-breakdown.ts)\n');
    process.exit(2);
  }
  const { total, shares } = breakdown(readFileSync(perfFile, 'utf8'), moduleLines(bundleDir));
  const ms = perRun === undefined ? null : Number(perRun);
  console.log(`${total} samples of the main thread${ms === null ? '' : `; ms per run of ${ms} ms main-thread CPU per run`}`);
  for (const s of shares) {
    const pct = (100 * s.samples) / total;
    console.log(`${pct.toFixed(1).padStart(5)}%${ms === null ? '' : `  ${((ms * s.samples) / total).toFixed(3)} ms`}  ${s.category}  (OS kernel ${Math.round((100 * s.inKernel) / s.samples)}%)`);
    const top = [...s.functions].sort((a, b) => b[1] - a[1]).slice(0, topFunctions);
    for (const [fn, n] of top) console.log(`         ${((100 * n) / total).toFixed(1).padStart(5)}%  ${fn}`);
  }
}
