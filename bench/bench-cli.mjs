#!/usr/bin/env node
/**
 * `npm run bench:cli`: how quickly the `stagecraft` command answers, as ratios to bare
 * `node -e 0` measured in the same run (the machine is shared: compare ratios from one line).
 *
 * Each repetition runs, one after the other: `node -e 0`, `stagecraft --help`, `stagecraft schema`,
 * `stagecraft validate examples/blog_writer`, and `stagecraft run examples/summarize` on an embedded
 * data dir that already exists (made by one untimed run first). A figure is the median of the
 * repetitions: REPS (default 5); `--tiny` or BENCH_TINY=1 → 1 (what `npm test` uses to keep the
 * script working). The run's peak memory is the largest resident set of any process in the
 * command's tree (`/usr/bin/time -f %M` when present), else the CLI process's own
 * `process.resourceUsage().maxRSS`, read through a preloaded module.
 *
 * Prints one JSON line: wall times (ms), ratios to bare node, the run's wall time and peak RSS
 * (MB), and whether each goal holds (help ≤ 3×, validate ≤ 5×, run ≤ 1.2 s and ≤ 300 MB).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'bin', 'stagecraft.mjs');
const TINY = process.argv.includes('--tiny') || process.env.BENCH_TINY === '1';
const REPS = TINY ? 1 : Number(process.env.REPS ?? 5);
const TIME = '/usr/bin/time';
const hasTime = existsSync(TIME);

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sc-bench-cli-'));
const env = { ...process.env, STAGECRAFT_DATA_DIR: path.join(dataDir, 'data'), NEXT_TELEMETRY_DISABLED: '1' };
delete env.DATABASE_URL; // the embedded store, as on a laptop
delete env.OTEL_EXPORTER_OTLP_ENDPOINT;

const summarize = path.join(ROOT, 'examples', 'summarize');
const runArgs = ['run', summarize, '--input', path.join(summarize, 'input.json'), '--json'];
const rssFile = path.join(dataDir, 'rss');
// fallback without /usr/bin/time: the CLI process reports its own peak RSS (KiB) as it exits
const rssPreload = `data:text/javascript,${encodeURIComponent(
  `import{writeFileSync}from'node:fs';process.on('exit',()=>writeFileSync(${JSON.stringify(rssFile)},String(process.resourceUsage().maxRSS)));`,
)}`;

/** one command's wall time (ms); fails loudly on a non-zero exit */
function timed(argv, { measureRss = false } = {}) {
  let cmd = process.execPath;
  let args = argv;
  if (measureRss && hasTime) {
    cmd = TIME;
    args = ['-f', '%M', process.execPath, ...argv];
  } else if (measureRss) args = ['--import', rssPreload, ...argv];
  const t0 = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { cwd: ROOT, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${argv.join(' ')} exited ${r.status}: ${r.stderr}`);
  let rssKb = null;
  if (measureRss) rssKb = hasTime ? Number(r.stderr.trim().split('\n').at(-1)) : Number(readFileSync(rssFile, 'utf8'));
  return { ms, rssKb };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const round = (x, d = 2) => Math.round(x * 10 ** d) / 10 ** d;

try {
  timed([BIN, ...runArgs]); // creates the embedded data dir (migrations, examples): not timed
  const t = { node: [], help: [], schema: [], validate: [], run: [], rss: [] };
  for (let i = 0; i < REPS; i++) {
    t.node.push(timed(['-e', '0']).ms);
    t.help.push(timed([BIN, '--help']).ms);
    t.schema.push(timed([BIN, 'schema']).ms);
    t.validate.push(timed([BIN, 'validate', path.join(ROOT, 'examples', 'blog_writer')]).ms);
    const run = timed([BIN, ...runArgs], { measureRss: true });
    t.run.push(run.ms);
    t.rss.push(run.rssKb);
  }
  const node = median(t.node);
  const ratio = (k) => round(median(t[k]) / node);
  const runMs = median(t.run);
  const rssMb = Math.max(...t.rss) / 1024;
  const out = {
    bench: 'cli',
    reps: REPS,
    node_ms: round(node, 1),
    help_ms: round(median(t.help), 1),
    schema_ms: round(median(t.schema), 1),
    validate_ms: round(median(t.validate), 1),
    help_ratio: ratio('help'),
    schema_ratio: ratio('schema'),
    validate_ratio: ratio('validate'),
    run_ms: round(runMs, 1),
    run_ratio: ratio('run'),
    run_peak_rss_mb: round(rssMb, 1),
    rss_source: hasTime ? '/usr/bin/time %M' : 'process.resourceUsage',
    goals: {
      help_le_3x: ratio('help') <= 3,
      validate_le_5x: ratio('validate') <= 5,
      run_le_1200ms: runMs <= 1200,
      run_le_300mb: rssMb <= 300,
    },
  };
  console.log(JSON.stringify(out));
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
