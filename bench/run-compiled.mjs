#!/usr/bin/env node
// How every `npm run bench:*` that times our code runs it: compiled, as the shipped CLI is, with plain node.
//   node bench/run-compiled.mjs <entry.ts> [--] [args…]   compiles the bench (bench/compile.mjs: reused while its
//                                                          sources are unchanged) and runs the module with these
//                                                          args, in a node process of its own; exits as it exits
//   node bench/run-compiled.mjs --print <entry.ts>         only compiles, and prints the module's path
//                                                          (bench/compare.sh runs it many times)
// Through tsx instead, every module carries esbuild's keepNames and source maps, which cost node's
// main thread ~20% at bench:store's sizes: figures of what no user runs. Each bench's JSON line says
// `compiled: true` when it ran this way (bench/compiled.ts).
import { spawn } from 'node:child_process';
import { compileBench } from './compile.mjs';

const argv = process.argv.slice(2);
const print = argv[0] === '--print';
const [entry, ...rest] = print ? argv.slice(1) : argv;
if (!entry || !/\.[cm]?ts$/.test(entry)) {
  process.stderr.write('usage: node bench/run-compiled.mjs <entry.ts> [--] [args…]  |  node bench/run-compiled.mjs --print <entry.ts>\n');
  process.exit(2);
}
let script;
try {
  script = await compileBench(entry);
} catch (e) {
  process.stderr.write(`run-compiled: ${entry} did not compile: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
}
if (print) {
  process.stdout.write(`${script}\n`);
  process.exit(0);
}
const args = rest[0] === '--' ? rest.slice(1) : rest;
const child = spawn(process.execPath, [...process.execArgv, script, ...args], { stdio: 'inherit' });
// a stop sent to this process is the bench's (a terminal's ^C reaches both: the bench alone handles it)
process.on('SIGTERM', () => child.kill('SIGTERM'));
process.on('SIGHUP', () => child.kill('SIGHUP'));
process.on('SIGINT', () => {});
child.on('exit', (code, signal) => {
  if (signal) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  } else process.exit(code ?? 1);
});
