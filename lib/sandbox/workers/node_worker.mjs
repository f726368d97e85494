// Stagecraft sandbox worker for node code steps (.js/.mjs/.cjs, and .ts/.mts
// when started with tsx's loader).
//
// Owns: one long-lived node process that imports each user module once (by
// file URL), calls `fn(value)` (awaiting async functions) per request and
// answers with JSON. Protocol: one JSON request per line on fd 3, one JSON
// reply per line on fd 4; console.log on stdout cannot corrupt a reply.
// Invariant: a reply's `value` is strict JSON — NaN, functions, Maps, class
// instances and cycles are reported, never silently dropped or nulled.
//
// Does not: enforce timeouts or the heap limit (the parent kills the process
// group; --max-old-space-size is a flag of this process), or sandbox the file
// system or network. Plain JS on purpose: it must start without tsx.
import net from 'node:net';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { closeSync, existsSync, lstatSync, openSync, readdirSync, readFileSync, readSync } from 'node:fs';
import { Worker } from 'node:worker_threads';

const REQUEST_FD = 3;
const REPLY_FD = 4;
const PARENT_POLL_MS = 500;
const SELF = fileURLToPath(import.meta.url);

// Every descriptor past the protocol's (0-4) that this process inherited rather than opened is closed
// before anything else: whoever started the server may have left one open without close-on-exec (a
// shell's `exec 100<>file`, a supervisor's socket), and it passes into every child, through bubblewrap
// too — in here a host file or socket user code would reach by its number. Node and libuv open their own
// close-on-exec, so one without the flag (fdinfo's `flags`, O_CLOEXEC 02000000) is not this worker's.
// Linux only (fdinfo): elsewhere there is no sandbox, and code reads the host's files anyway.
function closeInherited() {
  let names;
  try {
    names = readdirSync('/proc/self/fd');
  } catch {
    return;
  }
  const head = Buffer.alloc(64); // `pos:` and `flags:` open every fdinfo
  for (const name of names) {
    const fd = Number(name);
    if (!(fd > REPLY_FD)) continue;
    try {
      const info = openSync(`/proc/self/fdinfo/${fd}`, 'r');
      const n = readSync(info, head, 0, head.length, 0);
      closeSync(info);
      const flags = /flags:\s*([0-7]+)/.exec(head.toString('latin1', 0, n));
      if (flags && (parseInt(flags[1], 8) & 0o2000000) === 0) closeSync(fd);
    } catch {
      // the listing's own descriptor, gone already
    }
  }
}
closeInherited();

const requests = new net.Socket({ fd: REQUEST_FD, readable: true, writable: false });
const replies = new net.Socket({ fd: REPLY_FD, readable: false, writable: true });
/** a message, with the id of the request it answers when there is one (its last key, as the host reads it) */
const send = (message, id) => {
  if (id !== undefined) message.id = id;
  replies.write(JSON.stringify(message) + '\n');
};

// Each `--bound=DEV:INO:PATH` (an entry of the workspace the host checked, bound read-only over itself):
// what is at PATH must be that entry, and read-only, or the worker exits before any code runs (the path may
// have been swapped between the host's check and bubblewrap's bind: workspace-guard.ts).
for (const arg of process.argv) {
  if (!arg.startsWith('--bound=')) continue;
  const [dev, ino, ...rest] = arg.slice('--bound='.length).split(':');
  const where = rest.join(':');
  let isIt = false;
  try {
    const st = lstatSync(where, { bigint: true });
    // read-only: the bind itself (a folder swapped back in place of one bound elsewhere is in the writable workspace)
    isIt = st.dev === BigInt(dev) && st.ino === BigInt(ino) && isReadOnlyMountAt(where);
  } catch {
    isIt = false;
  }
  if (!isIt) {
    process.stderr.write(`${where} was replaced between the host's check and the sandbox's read-only bind of it: the worker does not start with it\n`);
    process.exit(97);
  }
}

/** Whether the mount seen at `where` (the last one there) is read-only, as /proc/self/mountinfo says. */
function isReadOnlyMountAt(where) {
  const unescape = (s) => s.replace(/\\([0-7]{3})/g, (_, octal) => String.fromCharCode(parseInt(octal, 8)));
  let isReadOnly = false;
  for (const line of readFileSync('/proc/self/mountinfo', 'utf8').split('\n')) {
    const fields = line.split(' ');
    if (fields.length > 5 && unescape(fields[4]) === where) isReadOnly = fields[5].split(',').includes('ro');
  }
  return isReadOnly;
}

/** @type {Map<string, Promise<Record<string, unknown>>>} */
const modules = new Map();
/** each imported module's namespace, once its import has settled: a warm call finds its function without awaiting */
const loaded = new Map();

function load(modulePath) {
  let mod = modules.get(modulePath);
  if (!mod) {
    mod = import(pathToFileURL(modulePath).href);
    modules.set(modulePath, mod);
    // a failed import is not cached here, so a fixed file is retried (node may still cache the failure)
    mod.then(
      (ns) => loaded.set(modulePath, ns),
      () => modules.delete(modulePath),
    );
  }
  return mod;
}

/** The callable and its `this`: a named export, or a function on a default-exported object (CJS too). */
function findExport(mod, name) {
  if (typeof mod[name] === 'function') return { fn: mod[name], self: mod };
  const dflt = mod.default;
  if (dflt && (typeof dflt === 'object' || typeof dflt === 'function') && typeof dflt[name] === 'function') {
    return { fn: dflt[name], self: dflt };
  }
  return null;
}

function functionsOf(mod) {
  const names = new Set();
  for (const [k, v] of Object.entries(mod)) if (typeof v === 'function' && k !== 'default') names.add(k);
  const dflt = mod.default;
  if (dflt && typeof dflt === 'object') {
    for (const [k, v] of Object.entries(dflt)) if (typeof v === 'function') names.add(k);
  }
  return [...names].sort();
}

class NotJson extends Error {
  constructor(where, what) {
    super(`${what} at ${where}`);
    this.where = where;
    this.what = what;
  }
}

const typeName = (v) => (v === null ? 'null' : typeof v === 'object' ? (v.constructor?.name ?? 'object') : typeof v);

/** `$`, then `.key` or `[index]` per step of `path` (built only for an error's message) */
const whereOf = (path) => path.reduce((w, p) => (typeof p === 'number' ? `${w}[${p}]` : `${w}.${p}`), '$');

/**
 * The value as strict JSON data; `undefined` object members are omitted, as JSON.stringify does.
 * `path` is where `value` is (keys and indexes from the top), `seen` the objects enclosing it.
 */
function toJson(value, path, seen) {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new NotJson(whereOf(path), `${value} (JSON has no NaN or Infinity)`);
    return value;
  }
  if (typeof value !== 'object') throw new NotJson(whereOf(path), `a ${typeName(value)}`);
  if (typeof value.toJSON === 'function') return toJson(value.toJSON(), path, seen);
  if (seen.has(value)) throw new NotJson(whereOf(path), 'a reference to an enclosing object (a cycle)');
  seen.add(value);
  try {
    if (Array.isArray(value)) {
      const out = new Array(value.length);
      for (let i = 0; i < value.length; i++) {
        path.push(i);
        if (value[i] === undefined) throw new NotJson(whereOf(path), 'undefined (use null)');
        out[i] = toJson(value[i], path, seen);
        path.pop();
      }
      return out;
    }
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) {
      throw new NotJson(whereOf(path), `a ${typeName(value)} (only plain objects and arrays are JSON)`);
    }
    const out = {};
    const keys = Object.keys(value);
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i];
      const v = value[k];
      if (v === undefined) continue;
      path.push(k);
      out[k] = toJson(v, path, seen);
      path.pop();
    }
    return out;
  } finally {
    seen.delete(value);
  }
}

/** The deepest stack frame that is user code, as `file:line:col`. */
function userFrame(stack, modulePath) {
  const frames = [];
  for (const line of String(stack ?? '').split('\n')) {
    const m = /\(?((?:file:\/\/)?\/[^():]+):(\d+):(\d+)\)?\s*$/.exec(line.trim());
    if (!m) continue;
    const file = m[1].startsWith('file://') ? fileURLToPath(m[1]) : m[1];
    if (file !== SELF) frames.push({ file, at: `${file}:${m[2]}:${m[3]}` });
  }
  return (frames.find((f) => f.file === modulePath) ?? frames[0])?.at ?? null;
}

/** The stack up to the first frame of this worker: below it is only the worker's own call machinery. */
function userStack(stack) {
  const lines = stack.split('\n');
  const cut = lines.findIndex((l) => /^\s+at /.test(l) && (l.includes(SELF) || l.includes(import.meta.url)));
  return (cut < 0 ? lines : lines.slice(0, cut)).join('\n');
}

function failure(kind, err, modulePath) {
  const isError = err instanceof Error;
  const stack = isError && typeof err.stack === 'string' ? userStack(err.stack) : null;
  return {
    ok: false,
    kind,
    errorType: isError ? err.name : typeName(err),
    message: isError ? err.message : safeString(err),
    traceback: stack,
    where: userFrame(stack, modulePath),
  };
}

function safeString(v) {
  try {
    return typeof v === 'string' ? v : JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

/** The function a request names, or the reply that says why there is none. */
async function resolve(modulePath, exportName) {
  if (!modules.has(modulePath) && !existsSync(modulePath)) {
    return { reply: { ok: false, kind: 'module_missing', message: `no such file: ${modulePath}` } };
  }
  // the current folder stays the one the worker was started in: the run's workspace
  let mod;
  try {
    mod = await load(modulePath);
  } catch (err) {
    return { reply: failure('import_failed', err, modulePath) };
  }
  const found = findExport(mod, exportName);
  return found ? { found } : { reply: { ok: false, kind: 'export_missing', available: functionsOf(mod) } };
}

/** The reply to one call of `found` (a promise only when the function returned one). */
function invoke(found, input, modulePath) {
  let result;
  let isThenable;
  try {
    result = found.fn.call(found.self, input);
    // (a `then` getter may throw, as awaiting the result would)
    isThenable = result !== null && (typeof result === 'object' || typeof result === 'function') && typeof result.then === 'function';
  } catch (err) {
    return failure('raised', err, modulePath);
  }
  if (!isThenable) return replyOf(result, modulePath);
  return Promise.resolve(result).then(
    (r) => replyOf(r, modulePath),
    (err) => failure('raised', err, modulePath),
  );
}

function replyOf(result, modulePath) {
  try {
    return { ok: true, value: result === undefined ? null : toJson(result, [], new Set()) };
  } catch (err) {
    if (err instanceof NotJson) return { ok: false, kind: 'not_json', message: err.what, where: err.where };
    if (err instanceof RangeError) {
      return { ok: false, kind: 'not_json', message: 'a structure nested too deeply', where: '$' };
    }
    return failure('not_json', err, modulePath); // a throwing toJSON()
  }
}

/** The reply to a single call (a promise while its module is importing, or when its function returned one). */
function handle(request) {
  const { modulePath, exportName, input } = request;
  const mod = loaded.get(modulePath);
  const found = mod && findExport(mod, exportName);
  if (found) return invoke(found, input, modulePath);
  return resolve(modulePath, exportName).then((r) => r.reply ?? invoke(r.found, input, modulePath));
}

/** `{ ...a, ...b }` as the kernel builds it (lib/kernel/json.ts merged): Object.assign, unless a key is `__proto__` */
function merged(a, b) {
  if (Object.hasOwn(a, '__proto__') || Object.hasOwn(b, '__proto__')) return { ...a, ...b };
  return Object.assign({}, a, b);
}

/**
 * A deep copy of JSON data (what a chain's value is: the request's parsed input and toJson's
 * results): cheaper than structuredClone for the small values steps pass on. An own `__proto__`
 * key (JSON.parse makes one) stays an own key.
 */
function copyJson(v) {
  if (typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) {
    const a = new Array(v.length);
    for (let i = 0; i < v.length; i++) a[i] = copyJson(v[i]);
    return a;
  }
  const o = {};
  const keys = Object.keys(v);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    if (k === '__proto__') Object.defineProperty(o, k, { value: copyJson(v[k]), enumerable: true, writable: true, configurable: true });
    else o[k] = copyJson(v[k]);
  }
  return o;
}

/**
 * Consecutive pure steps in one request: each step's input is the previous value with its
 * result merged in (into: key, else a shallow merge of a plain object), exactly as the kernel
 * merges. Stops at the first step that fails or cannot be merged; the kernel re-runs that one
 * on its own, so its error is reported and handled as for any step. A function is looked up once
 * per request, and a step whose function returns no promise is not awaited.
 */
async function handleChain(request) {
  let value = request.input;
  const outputs = [];
  let last = null;
  for (const step of request.steps) {
    if (!last || last.modulePath !== step.modulePath || last.exportName !== step.exportName) {
      const r = await resolve(step.modulePath, step.exportName);
      if (!r.found) break;
      last = { modulePath: step.modulePath, exportName: step.exportName, found: r.found };
    }
    // each step gets its own copy, as a single call would (a step that mutates its input must not change the next one's)
    let reply = invoke(last.found, copyJson(value), step.modulePath);
    if (typeof reply.then === 'function') reply = await reply;
    if (!reply.ok) break;
    const out = reply.value;
    if (step.into != null) value = merged(value, { [step.into]: out });
    else if (out !== null && typeof out === 'object' && !Array.isArray(out)) value = merged(value, out);
    else break;
    outputs.push(out);
  }
  return { ok: true, value: { outputs } };
}

// A busy user function blocks this thread's event loop, so EOF on fd 3 cannot stop an
// orphaned worker; a tiny thread watches for the parent's death instead. Only where the launcher
// does not kill the worker with its parent itself (unsandboxed: bubblewrap does, `--dies-with-parent`):
// the thread is a second node environment, whose boot costs tens of ms of CPU, most of it during the
// worker's first calls, and some MB of the worker's memory. Started after `ready`.
function exitWhenParentDies() {
  const source = `
    const parent = ${process.ppid};
    setInterval(() => { if (process.ppid !== parent) process.kill(${process.pid}, 'SIGKILL'); }, ${PARENT_POLL_MS});
  `;
  const watcher = new Worker(source, { eval: true, resourceLimits: { maxOldGenerationSizeMb: 8 } });
  watcher.unref();
  watcher.on('error', () => {}); // the watchdog is best-effort
}

let buffered = '';
/** requests run one after another: the last one accepted while it runs, else null */
let chain = null;
/** Runs a request: at once when none is running (a warm sync function is answered without an await), else after the others. */
function accept(request) {
  let run;
  if (chain) run = chain.then(() => (request.steps ? handleChain(request) : handle(request)));
  else {
    const reply = request.steps ? handleChain(request) : handle(request);
    if (typeof reply.then !== 'function') return void send(reply, request.id);
    run = reply;
  }
  const sent = run.then((reply) => send(reply, request.id));
  chain = sent;
  void sent.then(() => {
    if (chain === sent) chain = null;
  });
}
requests.setEncoding('utf8');
requests.on('data', (chunk) => {
  buffered += chunk;
  let nl;
  while ((nl = buffered.indexOf('\n')) >= 0) {
    const line = buffered.slice(0, nl);
    buffered = buffered.slice(nl + 1);
    if (!line.trim()) continue;
    accept(JSON.parse(line));
  }
});
requests.on('end', () => process.exit(0)); // the parent is gone or closed the sandbox
replies.on('error', () => process.exit(0));

// A TypeScript worker transforms one tiny module first: tsx starts its esbuild service for it, and
// what runs when the worker is ready is the worker itself (a process a step starts is killed after it).
if (process.argv.includes('--warm-ts')) {
  await import(new URL('./warm.ts', import.meta.url).href).catch(() => {});
  delete process.env.TSX_DISABLE_CACHE; // read by tsx when it loaded; user code sees the minimal environment
}
send({ type: 'ready', pid: process.pid });
if (!process.argv.includes('--dies-with-parent')) exitWhenParentDies();
