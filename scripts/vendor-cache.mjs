// The npm packages the command bundles (build-cli.mjs BUNDLED_PACKAGES: ajv, yaml, re2js, …, ~800 KB
// of JavaScript) are one CommonJS file beside the build's chunks, dist/build-*/vendor.cjs, loaded
// here through V8's code cache: node 20 caches no ES module's compile, and parsing that much takes
// tens of milliseconds of every start, while V8 reads its cached code in a few.
//
// The cache, vendor.cjs.<flags>.v8cache beside it, is written as the first process that ran without
// it exits (what it compiled by then: what a command needs), and used while V8 accepts it. V8 takes
// a cache made under the same V8 flags only, and a command sets some as it runs (cli/wasm-tier.ts,
// through `setV8Flag`): each set of flags (node's own options and those) has a cache of its own, so
// `validate` and `run` do not overwrite each other's. A cache that is missing, damaged (its
// checksum, kept in the file, disagrees), made from another vendor.cjs (its size and mtime, kept
// too, differ) or by another node (V8 rejects it) is ignored: the file is compiled as it is and
// the cache written again. Nothing is written anywhere but beside vendor.cjs, and a build folder
// that cannot be written to just goes without.
//
// `vendored(spec)`: the exports of one bundled module, named as the sources import it ('yaml',
// 'ajv/dist/2020.js'). This module is bundled as it is (its import.meta.url is its chunk's, in the
// build's folder: build-cli.mjs leaves it so), and only the command imports it.
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import vm from 'node:vm';

export const VENDOR_FILE = 'vendor.cjs';
export const CACHE_SUFFIX = '.v8cache';
/** a cache file's first line: this, the size and mtime of the source it was made from, the sha256 of V8's data (which follows) */
const MAGIC = 'stagecraft-v8cache-2';

let vendor = null;
const runtimeFlags = [];
/** caches to write as the process exits: V8's data is taken then, or as a flag is set (after which V8 would make it for the new flags) */
const pending = [];

/** sets a V8 flag for the rest of the process, and names the caches used from now on by it */
export function setV8Flag(flag) {
  if (runtimeFlags.includes(flag)) return;
  for (const p of pending) p.data ??= p.script.createCachedData();
  setFlagsFromString(flag);
  runtimeFlags.push(flag);
}

/** the cache file for `file` under the V8 flags set now */
export function cacheFileFor(file) {
  const flags = createHash('sha256').update(JSON.stringify([process.execArgv, runtimeFlags])).digest('hex').slice(0, 12);
  return `${file}.${flags}${CACHE_SUFFIX}`;
}

export function vendored(spec) {
  vendor ??= loadVendor(path.join(path.dirname(fileURLToPath(import.meta.url)), VENDOR_FILE));
  const get = vendor.exports[spec];
  if (!get) throw new Error(`${spec} is not among the bundled packages of ${vendor.file}: rebuild the command (npm run build:cli)`);
  return get();
}

/** what a cache must have been made from: the source file as it is now */
function sourceStamp(file) {
  const st = statSync(file);
  return `${st.size} ${st.mtimeMs}`;
}

/** V8's data in a cache file made from `source` as it is now, or undefined when there is none, it is damaged or made from another */
export function readCache(file, source) {
  let bytes;
  try {
    bytes = readFileSync(file);
  } catch {
    return undefined;
  }
  const eol = bytes.indexOf(10);
  if (eol < 0) return undefined;
  const [magic, size, mtime, sum] = bytes.subarray(0, eol).toString('latin1').split(' ');
  if (magic !== MAGIC || `${size} ${mtime}` !== sourceStamp(source)) return undefined;
  const data = bytes.subarray(eol + 1);
  return data.length > 0 && createHash('sha256').update(data).digest('hex') === sum ? data : undefined;
}

/** writes the cache file whole or not at all (another process may be reading it) */
export function writeCache(file, source, data) {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    const head = `${MAGIC} ${sourceStamp(source)} ${createHash('sha256').update(data).digest('hex')}\n`;
    writeFileSync(tmp, Buffer.concat([Buffer.from(head, 'latin1'), data]));
    renameSync(tmp, file);
  } catch {
    rmSync(tmp, { force: true }); // a read-only install: no cache
  }
}

/** runs vendor.cjs (compiled from the cache when it has a usable one); `cacheUsed` says whether it did */
export function loadVendor(file) {
  const cacheFile = cacheFileFor(file);
  const source = readFileSync(file, 'utf8');
  const cachedData = readCache(cacheFile, file);
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    cachedData,
  });
  const cacheUsed = cachedData !== undefined && !script.cachedDataRejected;
  // what the process compiled by its end (or by the time it set another V8 flag), for the next one
  if (!cacheUsed) {
    const p = { script, data: undefined };
    pending.push(p);
    process.once('exit', () => writeCache(cacheFile, file, p.data ?? script.createCachedData()));
  }
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, path.dirname(file));
  return { file, exports: module.exports, cacheUsed };
}
