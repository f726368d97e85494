// node --import tsx bench/compile-bench.ts <entry.ts> — compiles a bench script as a shipped build is
// (compile.ts) and prints the module's path. bench:compare runs its harness that way: through tsx,
// every module is compiled with esbuild's keepNames (a `__name` call per function made) and with
// source maps on, which the shipped CLI has neither of — at 200 runs × 5 pure steps, c=8, node's main
// thread spent 1.60 ms a run through tsx against 1.30 compiled (6 of 6 interleaved pairs, load 8–10).
import { compileBench } from './compile';

const entry = process.argv[2];
if (!entry) {
  process.stderr.write('usage: node --import tsx bench/compile-bench.ts <entry.ts>\n');
  process.exit(2);
}
process.stdout.write(`${await compileBench(entry)}\n`);
