/** The CLI run as shipped, with every module URL the process resolves recorded by a loader hook. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli, type CliResult } from './spawn-cli';

let built: Promise<void> | null = null;

/**
 * dist/ current before any command is traced: bin rebuilds it first when a source changed since
 * (scripts/built.mjs), and a traced command that did so would resolve esbuild and be taken for one
 * that loads a TypeScript loader. A source edited, or a checkout, leaves it stale until some command
 * runs; under load, a rebuild by a test running beside this one takes longer, and more commands
 * started meanwhile find it stale. One untraced `--help` makes it current (once per test process).
 */
function currentBuild(): Promise<void> {
  built ??= runCli(['--help'], { env: process.env }).then((r) => {
    if (r.code !== 0) throw new Error(`stagecraft --help, run to make dist/ current, failed (${r.code}): ${r.err}`);
  });
  return built;
}

/**
 * A hook for a node process to be started: `nodeArgs` register it, `modules()` lists every module URL the
 * process resolved (ES module resolution: imports, and a package's CommonJS entry imported from one).
 */
export function loadTracer(): { nodeArgs: string[]; modules: () => string[]; done: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'sc-lazy-'));
  const loads = path.join(dir, 'loads.txt');
  writeFileSync(loads, '');
  const hooks = `import{appendFileSync}from'node:fs';export async function resolve(s,c,n){const r=await n(s,c);appendFileSync(${JSON.stringify(loads)},r.url+'\\n');return r}`;
  const register = path.join(dir, 'register.mjs');
  writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});\n`);
  return {
    nodeArgs: ['--import', register],
    modules: () => readFileSync(loads, 'utf8').split('\n').filter(Boolean),
    done: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** the command's exit code, output, and every module URL it resolved (dist/ made current first, untraced) */
export async function tracedCli(argv: string[], env: NodeJS.ProcessEnv): Promise<CliResult & { modules: string[] }> {
  await currentBuild();
  const tracer = loadTracer();
  try {
    const r = await runCli(argv, { env, nodeArgs: tracer.nodeArgs });
    return { ...r, modules: tracer.modules() };
  } finally {
    tracer.done();
  }
}
