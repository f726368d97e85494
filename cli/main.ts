/**
 * The `stagecraft` command: validate, run, resume, abort, events, runs, worker, push, pull, versions,
 * replay, fork, compare, regress, export, import.
 *
 * Exit codes: 0 success (a completed run, a valid skill, a run aborted by
 * `abort`), 1 a failed or aborted run / an invalid skill for `validate` / a
 * resume or abort that failed / a run id that names no run (as a run that cannot go on
 * does; 2 under `replay --check`, below), 2 a usage error or an invalid skill passed to `run`
 * (or a fork point, an edit or an export file that does not fit, a skill name or version hash that names none,
 * a --skill folder of another skill than the run's). `replay --check`:
 * 0 identical, 1 diverged, 2 not checked (a usage error, a run id with no run, a run
 * still running, imported code refused without --trust, …): for CI, 1 means a
 * divergence and nothing else — with several runs, 1 when any diverged (the others'
 * errors printed too), else 2 when any was not checked; `regress`: 1 when a past run would change.
 * Every failure prints what happened and what to do; `--json` prints one JSON
 * object on stdout and nothing else there.
 *
 * Each command's module is imported when that command runs, so `--help`,
 * `schema` and `validate` never load the store (Prisma, PGlite), the queue or
 * the sandbox: people run `validate` from editors and pre-commit hooks.
 */
import { SettingsError, StagecraftError, UsageError, errorToJson } from '../lib/kernel/errors';
import { InputTooLarge, parse } from './args';
import { errorLine, inCliWords } from './error-line';
import { preloadPgliteAssets } from '../lib/store/pglite-assets';
import { hostFilesError } from '../lib/store/host-files';
import path from 'node:path';
import { baselineWasmOnly } from './wasm-tier';
import { optimizeLater } from './js-tier';
import { didYouMean } from '../lib/skill/suggest';
import { forTerminal, jsonForTerminal } from '../lib/kernel/terminal-text';
import { markReaderGone } from './reader-gone';
// the version installed (bundled into dist/ at build time: no file is read when the command runs)
import pkg from '../package.json' with { type: 'json' };

export const USAGE = `stagecraft — author LLM skills and see exactly what happened when one ran

usage:
  stagecraft validate <bundle|skill.md> [--json]
  stagecraft run <bundle|skill.md> [--input FILE|-] [--model scripted:FILE|openai|openai:MODEL] [--workspace DIR] [--json]
             [--queue]                      record the run for the workers and return at once (Postgres store)
  stagecraft worker [--concurrency N]       drive queued runs, N at once (default 4), until SIGTERM
  stagecraft resume [RUN [--model SPEC]] [--json]
                                            resume one run, or every interrupted run (--model: another model than the one it ran with)
  stagecraft abort RUN [--reason T] [--json] end a run (and its running child runs) as aborted, even one another process drives
  stagecraft events RUN [--json] [--follow] print a run's event log
                                            (--follow: then each new event as it is committed, until the
                                            run ends; exit as run exits for that end: 0 completed, 1 failed
                                            or aborted; --follow --json prints one event a line, JSON Lines)
  stagecraft runs [--json] [--status S,..] [--outcome O,..] [--skill N] [--attention]
                  [--failed AT] [--search TEXT] [--since T] [--until T] [--limit N] [--cursor C]
                                            list runs, newest first (--attention: failed, aborted by
                                            a step, or blocked, and not taken on by a fork that
                                            completed; --cursor: the next page; --since and
                                            --until take a date, a month, a year, a date-time or epoch ms
                                            (a number not of 4 digits): a date alone is that whole day,
                                            UTC — --until 2026-12-04 includes the 4th, --until 2026-12 all
                                            December, --until 2026 all the year; a time is exact and
                                            --until excludes it)
  stagecraft push <bundle|skill.md> [--name N] [--json]
                                            save a bundle folder as a new version of its skill
  stagecraft pull NAME [DIR] [--version HASH] [--force] [--json]
                                            write a skill's version (default: the latest) to a folder (default ./NAME)
                                            (a file there with changes in no saved version stops it,
                                            nothing written: --force replaces it)
  stagecraft versions SKILL [--json]        a skill's versions, newest first: the hashes --version
                                            takes, and which is the latest
  stagecraft replay RUN|FILE.json… [--version HASH | --skill DIR] [--check] [--json] [--trust]
                                            re-run recorded runs against a version, zero model calls;
                                            identical, or every step that changed, each run as it is known
                                            (--check: exit 0 identical, 1 if any run diverged, else 2 if any
                                            could not be checked)
  stagecraft fork RUN [--at POSITION] [--set JSON_PATH=JSON]… [--value FILE] [--version HASH | --skill DIR] [--model SPEC] [--json] [--trust]
                                            a new run: steps before POSITION from the recording, the value
                                            there edited (none: rerun from here), then live; no --at: a
                                            failed or aborted run reruns from its failed step
  stagecraft compare RUN_A RUN_B [--json]   two runs aligned step by step, first divergence on top
  stagecraft regress SKILL [--version HASH] [--limit N] [--json] [--trust]
                                            a version's postprocessor over past runs' finish artifacts
  stagecraft export RUN [--out FILE] [--json] one JSON file: the run, its log and the skill version, hashed
  stagecraft import FILE… [--json]          check and add exported runs (idempotent, never overwrites)
  stagecraft schema                         print the skill.md frontmatter JSON Schema
  stagecraft --version                      print the installed version

run uses the bundle's model.yaml (a scripted model, offline) unless --model says otherwise.
Exit codes: 0 done; 1 a run failed or was aborted, validate found errors, or replay --check
saw a divergence; 2 what the command was given does not fit (a usage error, a missing file,
an invalid skill for run), before anything ran.
regress exits 1 when a past run would change; replay --check exits 2 when a run could not
be checked (no divergence seen).

The store is DATABASE_URL (Postgres) when set, else an embedded database in
STAGECRAFT_DATA_DIR (default ./.stagecraft); while the app holds that one, runs,
events, abort, export, compare and versions go through the app. With STAGECRAFT_WORKERS=external the
app queues its runs for \`stagecraft worker\` processes. With
OTEL_EXPORTER_OTLP_ENDPOINT set, every run is exported as OpenTelemetry spans.
Beside the running app, run DIR, fork, replay, resume RUN, push, pull, import
and regress go through it too (a few of their flags cannot, and say why);
worker cannot.`;

/**
 * The usage a mistake in one command is met with: that command's lines of USAGE (its name line and
 * the lines that continue it), not every command's — the message above them stays in view. An
 * unknown or missing command gets all of it.
 */
export function usageFor(cmd: string | undefined): string {
  const lines = USAGE.split('\n');
  const at = cmd ? lines.findIndex((l) => l === `  stagecraft ${cmd}` || l.startsWith(`  stagecraft ${cmd} `)) : -1;
  if (at < 0) return USAGE;
  let end = at + 1;
  while (end < lines.length && /^ {3,}\S/.test(lines[end])) end++;
  return ['usage:', ...lines.slice(at, end), '', '`stagecraft --help` lists every command.'].join('\n');
}

const COMMANDS = new Set(['validate', 'run', 'worker', 'resume', 'abort', 'events', 'runs', 'push', 'pull', 'versions', 'replay', 'fork', 'compare', 'regress', 'export', 'import', 'schema']);

/** the flags `stagecraft` takes in a command's place: a dashed word there is a typo of one of these */
const TOP_LEVEL_FLAGS = ['--help', '--version'];

/**
 * A mistyped command's likely meaning (`replays`, `abrot`, `version`, `--verison`): the closest command
 * (the closest top-level flag, for a dashed word), as a suffix for the unknown-command error; '' when
 * none is that close.
 */
function meantCommand(cmd: string): string {
  if (cmd === 'version' || cmd === '-v') return ': `stagecraft --version` prints the installed version; `stagecraft versions SKILL` lists a skill\'s versions';
  const near = didYouMean(cmd, cmd.startsWith('-') ? TOP_LEVEL_FLAGS : COMMANDS);
  return near === undefined ? '' : `: did you mean \`stagecraft ${near}\`?`;
}

/** `--help` or `-h` among a command's arguments (before a `--`, after which every word is an argument) */
function asksForHelp(args: string[]): boolean {
  const end = args.indexOf('--');
  return (end < 0 ? args : args.slice(0, end)).some((a) => a === '--help' || a === '-h');
}

/**
 * what the caller sent that does not fit, found before anything ran: exit 2, as a usage error — a
 * skill name or a --version hash that names nothing is the caller's input too (pull, regress, replay, fork),
 * and so is a run's input its entry phase's contract refuses (`run`, as the app refuses it: no run is recorded)
 */
const EXIT_2_CODES = new Set(['skill_invalid', 'input_invalid', 'export_invalid', 'fork_point_unknown', 'fork_edit_invalid', 'fork_prefix_changed', 'skill_not_found', 'version_not_found', 'skill_mismatch']);

/**
 * commands that run a folder the caller names (run DIR, replay/fork --skill DIR): one a bundle cannot be
 * (a binary file, a link out of it) is an invalid skill passed to `run`, exit 2; `push` says so as
 * `validate` does (1), and `pull` of a stored version refused is no mistake of the caller's
 */
const RUNS_A_FOLDER = new Set(['run', 'replay', 'fork']);

export type Io = { out: (s: string) => void; err: (s: string) => void; stdin: (maxBytes: number) => Promise<string> };

/**
 * A reader that went away (`stagecraft run … | head -3`) is not a crash: node throws the pipe's EPIPE
 * as an unhandled 'error' event — a stack trace, and exit 1 after the run had completed. What is left
 * to print there is dropped, and the command ends with the exit code it has; a command that only
 * follows a run stops at once (reader-gone.ts).
 */
const closedStreams = new WeakSet<NodeJS.WriteStream>();
function keepGoingWhenClosed(stream: NodeJS.WriteStream): void {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE' && e.code !== 'ERR_STREAM_DESTROYED') throw e;
    closedStreams.add(stream);
    if (stream === process.stdout) markReaderGone();
  });
}
/**
 * Whether stdout carries JSON (`--json`; export's file when written there), set by `main`: to a pipe or
 * a file it is written byte for byte, for a program to parse (JSON escapes the controls a run's text
 * can hold, as `\u001b`…).
 */
let stdoutIsJson = false;
function writeTo(stream: NodeJS.WriteStream, s: string): void {
  if (closedStreams.has(stream)) return;
  const line = s.endsWith('\n') ? s : `${s}\n`;
  // a run's own text is shown, never obeyed: on a terminal, and to a pipe or a file too (`| less -R`, a
  // log read on a terminal later), where it used to go byte for byte; JSON to a pipe or a file as it is,
  // and to a terminal with the controls JSON leaves raw (C1, DEL) as its own escapes: still JSON
  const isJson = stdoutIsJson && stream === process.stdout;
  stream.write(isJson ? (stream.isTTY ? jsonForTerminal(line) : line) : forTerminal(line));
}

export const processIo: Io = {
  out: (s) => writeTo(process.stdout, s),
  err: (s) => writeTo(process.stderr, s),
  stdin: async (maxBytes) => {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const c of process.stdin) {
      size += (c as Buffer).length;
      if (size > maxBytes) throw new InputTooLarge();
      chunks.push(c as Buffer);
    }
    return Buffer.concat(chunks).toString('utf8');
  },
};

/**
 * A stop (SIGTERM or SIGINT) bin/stagecraft.mjs caught while node loaded `stagecraft worker`: `take()`
 * ends bin's hold on those signals (call it once the command's own handlers are on) and says which came, if any.
 */
export type EarlyStop = { take(): NodeJS.Signals | null };

export async function main(argv: string[], io: Io = processIo, start: { earlyStop?: EarlyStop } = {}): Promise<number> {
  const [cmd, ...rest] = argv;
  const json = rest.includes('--json');
  // `replay --check` is for CI, where 1 says a replay diverged: whatever kept it from checking exits 2
  const checking = cmd === 'replay' && rest.includes('--check');
  if (io === processIo) for (const stream of [process.stdout, process.stderr]) keepGoingWhenClosed(stream);
  // `export RUN` without --out prints the run's JSON file there (and with --out, a line of the caller's own words)
  stdoutIsJson = json || cmd === 'export';
  // `stagecraft run --help` is a question, not a mistake: the command's usage, on stdout, exit 0
  if (cmd && COMMANDS.has(cmd) && asksForHelp(rest)) {
    io.out(usageFor(cmd));
    return 0;
  }
  // a command's code is optimized later than V8's default (js-tier.ts): set before any of it runs hot
  optimizeLater();
  try {
    switch (cmd) {
      case 'validate':
        return await (await import('./validate')).validateCommand(rest, io);
      case 'run':
        // on the embedded store, PGlite's files are read and compiled while the command loads (pglite-assets.ts)
        if (!process.env.DATABASE_URL) {
          baselineWasmOnly();
          preloadPgliteAssets();
        }
        return await (await import('./run')).runCommand(rest, io);
      case 'resume':
        return await (await import('./runs')).resumeCommand(rest, io);
      case 'abort':
        return await (await import('./runs')).abortCommand(rest, io);
      case 'events':
        return await (await import('./runs')).eventsCommand(rest, io);
      case 'runs':
        return await (await import('./runs')).runsCommand(rest, io);
      case 'worker':
        return await (await import('./worker')).workerCommand(rest, io, start.earlyStop);
      case 'push':
        return await (await import('./skills')).pushCommand(rest, io);
      case 'pull':
        return await (await import('./skills')).pullCommand(rest, io);
      case 'versions':
        return await (await import('./skills')).versionsCommand(rest, io);
      case 'replay':
        return await (await import('./replay')).replayCommand(rest, io);
      case 'fork':
        return await (await import('./replay')).forkCommand(rest, io);
      case 'compare':
        return await (await import('./replay')).compareCommand(rest, io);
      case 'regress':
        return await (await import('./replay')).regressCommand(rest, io);
      case 'export':
        return await (await import('./export')).exportCommand(rest, io);
      case 'import':
        return await (await import('./export')).importCommand(rest, io);
      case 'schema':
        // the frontmatter JSON Schema the validator and the editor share (for other editors, CI checks);
        // it takes nothing, and says so as every command does (a stray word or flag was ignored)
        parse(rest, {}, { min: 0, max: 0, names: 'no arguments' });
        io.out(JSON.stringify((await import('../lib/skill/schema')).skillFrontmatterSchema, null, 2));
        return 0;
      case undefined:
        // no command is a usage error: the usage goes where errors go
        io.err(USAGE);
        return 2;
      case 'help':
      case '--help':
      case '-h':
        // `stagecraft help run`: that command's usage, as `stagecraft run --help` prints it (a word no command is: said as one)
        if (rest[0] !== undefined && !rest[0].startsWith('-')) {
          if (!COMMANDS.has(rest[0])) throw new UsageError(`unknown command "${rest[0]}"${meantCommand(rest[0])}`);
          io.out(usageFor(rest[0]));
          return 0;
        }
        io.out(USAGE);
        return 0;
      case '--version':
      case '-V':
        // what a bug report needs, on stdout alone: `stagecraft --version` was an unknown command (exit 2)
        parse(rest, {}, { min: 0, max: 0, names: 'no arguments' });
        io.out(`stagecraft ${pkg.version}`);
        return 0;
      default:
        throw new UsageError(`unknown command "${cmd}"${meantCommand(cmd)}`);
    }
  } catch (caught) {
    // the machine's files refusing (a full disk…) is said as such, not as a bug with its stack (lib/store/host-files.ts)
    const e = inCliWords(hostFilesError(caught, process.env.DATABASE_URL ? undefined : path.resolve(process.env.STAGECRAFT_DATA_DIR || '.stagecraft')) ?? caught);
    const body = errorToJson(e);
    if (json) io.out(JSON.stringify({ error: body }));
    // bad settings (STAGECRAFT_…=lots): each on its own line, and no usage — nothing was wrong with the command line
    if (e instanceof SettingsError) {
      io.err(e.problems.map((p) => `stagecraft: ${p}`).join('\n'));
      return 2;
    }
    if (e instanceof UsageError) {
      io.err(`stagecraft: ${e.message}\n\n${usageFor(cmd)}`);
      return 2;
    }
    io.err(`stagecraft: ${errorLine(e)}`);
    if (e instanceof StagecraftError) return checking || EXIT_2_CODES.has(e.code) || (e.code === 'bundle_invalid' && RUNS_A_FOLDER.has(cmd)) ? 2 : 1;
    return checking ? 2 : 1;
  }
}
