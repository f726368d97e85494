/**
 * How a sandbox worker process is launched: which executable, which flags,
 * which environment.
 *
 * Owns: the mapping from a module file to a worker flavour (python, node, node
 * with tsx's loader), the command line of each flavour, its memory limit, and
 * the minimal environment every worker gets. Invariant: nothing is copied from
 * the server's `process.env` — a worker sees exactly the keys built here, so no
 * secret of the server can leak into user code. The memory limit counts what
 * the process maps, not only its heap: python sets RLIMIT_AS on itself before
 * any user code runs; node gets RLIMIT_DATA (every private writable mapping —
 * the V8 heap, Buffers, native allocations; V8's address-space reservations
 * would not fit under RLIMIT_AS) from a shell that then becomes the worker.
 *
 * Does not: spawn or talk to processes (worker.ts), or decide when a worker is
 * reused (sandbox.ts). POSIX only: the sandbox relies on process groups.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveInstalled } from '../resolve-installed';

/** A worker runtime. TypeScript modules get their own node worker, started with tsx's loader,
 *  so plain JS modules do not pay tsx's start-up cost (~180 ms here). */
export type Flavour = 'python' | 'node' | 'node-ts';

export type Language = 'python' | 'node';

const NODE_JS_EXTENSIONS = new Set(['.js', '.mjs', '.cjs']);
const NODE_TS_EXTENSIONS = new Set(['.ts', '.mts', '.cts']);

/** The worker flavour for a module, or a sentence explaining why the extension does not fit the language. */
export function flavourFor(language: Language, modulePath: string): Flavour | { mismatch: string } {
  const ext = path.extname(modulePath).toLowerCase();
  if (language === 'python') {
    if (ext === '.py') return 'python';
    return { mismatch: `a python step needs a .py module, got "${ext || '(no extension)'}"` };
  }
  if (NODE_JS_EXTENSIONS.has(ext)) return 'node';
  if (NODE_TS_EXTENSIONS.has(ext)) return 'node-ts';
  return { mismatch: `a node step needs a .js, .mjs, .cjs, .ts or .mts module, got "${ext || '(no extension)'}"` };
}

/** The system directories a worker may find programs in (the server's PATH is not inherited). */
const SYSTEM_PATH_DIRS = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'];

/** The complete environment of a worker. `NODE_OPTIONS` is absent on purpose: it could inject code into workers. */
export function workerEnv(homeDir: string, flavour?: Flavour): Record<string, string> {
  const dirs = [path.dirname(process.execPath), ...SYSTEM_PATH_DIRS];
  return {
    PATH: [...new Set(dirs)].join(':'),
    LANG: 'C.UTF-8',
    HOME: homeDir,
    PYTHONDONTWRITEBYTECODE: '1',
    PYTHONUNBUFFERED: '1',
    // tsx's disk cache would let the worker's warm-up skip esbuild, which then starts during a step and is killed with it
    ...(flavour === 'node-ts' ? { TSX_DISABLE_CACHE: '1' } : {}),
  };
}

export type LaunchCommand = { command: string; args: string[] };

/**
 * `diesWithParent`: the launcher kills the worker when the worker's parent dies (bubblewrap's
 * --die-with-parent and its pid namespace), so the node worker starts no thread of its own to watch for that.
 */
export function launchCommand(flavour: Flavour, memoryLimitMb: number, diesWithParent = false): LaunchCommand {
  if (flavour === 'python') {
    // Resolved through the worker's PATH (system dirs), not the server's: a virtualenv
    // on the server's PATH is deliberately not picked up.
    return { command: 'python3', args: [pythonWorkerScript(), String(memoryLimitMb)] };
  }
  const args = [`--max-old-space-size=${memoryLimitMb}`];
  if (flavour === 'node-ts') args.push('--import', tsxLoaderPath());
  args.push(nodeWorkerScript());
  if (flavour === 'node-ts') args.push('--warm-ts');
  if (diesWithParent) args.push('--dies-with-parent');
  // `ulimit -d` takes KiB; the shell execs node, so the worker is the shell's own process
  return { command: '/bin/sh', args: ['-c', 'ulimit -d "$0" && exec "$@"', String(memoryLimitMb * 1024), process.execPath, ...args] };
}

const pythonWorkerScript = () => workerScript('python_worker.py', () => new URL('./workers/python_worker.py', import.meta.url));
const nodeWorkerScript = () => workerScript('node_worker.mjs', () => new URL('./workers/node_worker.mjs', import.meta.url));

/** What a flavour's worker must be able to read besides the system and the bundle: its worker script, and tsx with esbuild for TypeScript. */
export function runtimeFiles(flavour: Flavour): string[] {
  if (flavour === 'python') return [path.dirname(pythonWorkerScript())];
  const files = [path.dirname(nodeWorkerScript())];
  if (flavour === 'node-ts') {
    const pkg = (spec: string) => path.dirname(resolveInstalled(`${spec}/package.json`));
    // esbuild's binary is a package of its own, per platform
    files.push(pkg('tsx'), pkg('esbuild'), pkg(`@esbuild/${process.platform}-${process.arch}`));
  }
  return files;
}

let cachedTsxLoader: string | null = null;

/** Absolute path of tsx's loader (`tsx`), resolved from this package's node_modules. */
export function tsxLoaderPath(): string {
  if (cachedTsxLoader) return cachedTsxLoader;
  try {
    // the whole loader (ESM and CommonJS hooks): a module with no package.json above it (a bundle's copy) loads as CommonJS
    cachedTsxLoader = resolveInstalled('tsx');
    return cachedTsxLoader;
  } catch {
    throw new Error('tsx is not installed: TypeScript code steps need the `tsx` package (npm install tsx)');
  }
}

/**
 * The worker scripts ship next to this file. When a bundler has moved this module
 * (so import.meta.url no longer points into lib/sandbox), fall back to the
 * project's checkout under the current directory. Each script's URL is written
 * out whole (`near`): a bundler copies what a literal `new URL(…, import.meta.url)`
 * names as its own asset, while a template would have it guess — and Next's
 * picked the Node worker for the Python one.
 */
function workerScript(name: string, near: () => URL): string {
  const candidates: string[] = [];
  try {
    candidates.push(fileURLToPath(near()));
  } catch {
    // import.meta.url is not a file URL under some bundlers
  }
  candidates.push(path.join(process.cwd(), 'lib', 'sandbox', 'workers', name));
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw new Error(`sandbox worker script ${name} not found (looked in ${candidates.join(', ')})`);
  return found;
}
