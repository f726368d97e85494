#!/usr/bin/env node
// The `stagecraft` command (npx stagecraft …): runs the compiled JavaScript in dist/ (built by
// `postinstall`, rebuilt here when the sources changed since; see scripts/built.mjs).
//
// `stagecraft worker` exits 0 on SIGTERM or SIGINT at any moment: a supervisor's stop, never a crash.
// Until its command's own handlers are on, these first lines — before any import — hold those signals:
// without them node dies of one while it loads the command's modules (tens of ms; seconds when dist/
// is rebuilt). A stop held here is handed to the worker command (`earlyStop.take()`), which then exits
// 0 saying so. Every other command is left as it was: a signal ends it, as it always has.
const STOPS = ['SIGTERM', 'SIGINT'];
let held = null;
const hold = (signal) => {
  held ??= signal;
};
const worker = process.argv[2] === 'worker';
if (worker) for (const s of STOPS) process.on(s, hold);
const earlyStop = {
  take() {
    for (const s of STOPS) process.off(s, hold);
    return held;
  },
};

const { importBuilt } = await import('../scripts/built.mjs');
const { main } = await importBuilt('cli');
const code = await main(process.argv.slice(2), undefined, worker ? { earlyStop } : {});
// what is still queued for a pipe that its reader has not taken yet (`stagecraft events RUN --json | jq`:
// a pipe holds 64 KB) is written before the exit, which would drop it; a reader gone drops it at once
const drained = (stream) => new Promise((resolve) => (stream.destroyed || stream.writableLength === 0 ? resolve() : stream.write('', () => resolve())));
await Promise.all([drained(process.stdout), drained(process.stderr)]);
// the embedded database and the Wasm migration engine may leave timers behind: exit explicitly
process.exit(code);
