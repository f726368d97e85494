/**
 * `stagecraft replay`, `fork`, `compare`, `regress`: checking a change against
 * recorded runs, and continuing them from any step.
 *
 * Exit codes: replay --check 0 identical / 1 diverged / 2 not checked (cli/main.ts) — with several
 * runs, 1 if any diverged, else 2 if any was not checked, else 0; without --check 1 if any could not
 * be replayed; 2 either way for a --skill folder that is no valid skill (said once); fork as run
 * (0 completed, 1 failed or aborted, 2 a fork point or edit that does not
 * fit); compare 0; regress 0 when no past run would change, else 1.
 */
import { existsSync, statSync } from 'node:fs';
import { AppAnswerError, StagecraftError, UsageError, errorToJson } from '../lib/kernel/errors';
import type { Json } from '../lib/kernel/json';
import { compareRuns } from '../lib/server/runs/compare-runs';
import { CLI_FORK_WORDS, forkRun, noForkPoint, type ForkVersionFrom } from '../lib/server/runs/fork-run';
import { failedStepPosition, rerunPoint } from '../lib/server/runs/failed-step';
import type { RunEvent } from '../lib/kernel/ports';
import { checkRunExport, importRuns } from '../lib/server/runs/import-runs';
import { regressSkill } from '../lib/server/runs/regress-skill';
import { replayRun } from '../lib/server/runs/replay-run';
import { bundlePath } from '../lib/server/runs/start-run';
import { summarizeRun } from '../lib/server/runs/run-summary';
import type { Host } from '../lib/server/host';
import { forkEditIndex, forkEditWords, insideAnsweredNote, MAX_REGRESS_LIMIT, otherSkillsNote, sameRunNote, type ReplayDivergenceView, type ReplayView, type RunSummaryView } from '../lib/views';
import { parse } from './args';
import { counted, plural } from '../lib/kernel/plural';
import { shellWord } from '../lib/kernel/shell-word';
import { noneReported, notReportedText } from '../lib/kernel/turn-usage';
import { checkModelSpec } from '../lib/models';
import { withHostOrApp } from './store';
import type { AppClient } from './through-app';
import type { Io } from './main';
import { diffLines, forkVersionLine, oneLine, printSummary, replayCounts, reusedLine, takeOnLine } from './print';
import { errorLine, inCliWords } from './error-line';
import { versionArg } from './version-arg';
import { sayHowToResumeOnStop, type StoppedRunJson } from './stop-words';
import { randomIds } from '../lib/server/system';
import { jsonArgErrorLines, jsonArgWhere, readArgText } from './fs-words';
import { readExportFile, readExportPipe, readExportStdin } from './export';

const short = (hash: string | null) => (hash ? hash.slice(0, 12) : '-');

/** an argument naming an export file (it exists as a file) rather than a run id */
const isFile = (arg: string) => existsSync(arg) && statSync(arg).isFile();
/** an argument naming a pipe: bash's `<(stagecraft export RUN)` (/dev/fd/63) or a FIFO, read as its contents */
const isPipe = (arg: string) => existsSync(arg) && statSync(arg).isFIFO();
/** an argument naming a folder: a folder of exported runs is given as its files (`runs/*.json`) */
const isFolder = (arg: string) => existsSync(arg) && statSync(arg).isDirectory();
/** an argument that can only be a path (a run id holds no slash and no .json), so it is no run id when no such file exists */
const isPathLike = (arg: string) => /[/\\]|\.json$/i.test(arg);

/** the text of the export an argument names (a file, a pipe, - for standard input); null when it names none (a run id, a folder, nothing) */
async function readExportArg(arg: string, io: Io): Promise<string | null> {
  if (arg === '-') return readExportStdin(io, 'replay');
  if (isFile(arg)) return readExportFile(arg);
  if (isPipe(arg)) return readExportPipe(arg);
  return null;
}

function versionChoice(values: { version?: string; skill?: string }) {
  if (values.version !== undefined && values.skill !== undefined) throw new UsageError('--version and --skill name the same thing (what to run with): give one of them.');
  // a folder that is not there (or a file that is no skill.md) is the same mistake for every run: said before any is looked up
  if (values.skill !== undefined) bundlePath(process.cwd(), values.skill);
  return { version: versionArg(values.version), skillDir: values.skill };
}

export async function replayCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(
    argv,
    { json: { type: 'boolean' }, check: { type: 'boolean' }, version: { type: 'string' }, skill: { type: 'string' }, trust: { type: 'boolean' } },
    { min: 1, max: Infinity, names: 'a run id, or exported run files' },
  );
  const choice = versionChoice(values);
  // export files are read and checked before the store is opened (and imported, checked again, inside);
  // each is read once here, as a pipe (`<(…)`, a FIFO, - for standard input) can be read only once
  const exports = new Map<string, string>();
  for (const arg of positionals) {
    if (exports.has(arg)) continue; // named twice: replayed twice, read once
    const read = await readExportArg(arg, io);
    if (read !== null) {
      checkRunExport(read, arg);
      exports.set(arg, read);
    }
    // `replay --check fixtures/replay`: the folder, not its files — said as a folder, not as a missing file or a run id
    else if (isFolder(arg)) {
      const files = `${arg.replace(/[/\\]+$/, '')}/*.json`;
      throw new UsageError(`${arg} is a folder: replay takes run ids and exported run files (stagecraft export); name the files in it: stagecraft replay ${values.check ? '--check ' : ''}${files}`);
    }
    // a mistyped path, or a glob that matched nothing (`replay --check runs/*.json`), is not a run id to look up
    else if (isPathLike(arg)) throw new UsageError(`No file ${arg}: replay takes run ids and exported run files (stagecraft export); check the path.`);
  }
  const req = { ...choice, trust: values.trust };
  // beside the app that holds the store: each run replayed by the app (POST /api/runs/<id>/replay)
  const notThroughApp = values.skill !== undefined
    ? 'the app takes no folder of this machine as the version to replay with (--skill DIR).'
    : values.trust
      ? '--trust is for code run here, and the app runs the replay.'
      : null;
  // the runs replayed so far (several runs): under --json, a stop prints them with the replay it leaves
  const results: ReplayResult[] = [];
  const stopJson = values.json ? (stopped: StoppedReplayJson) => (positionals.length === 1 ? stopped : { identical: false, replays: [...results, stopped] }) : undefined;
  return withHostOrApp(
    io,
    (host) => replayEach((arg) => replayOne(host, arg, exports.get(arg), req, io, stopJson)),
    (app) => replayEach((arg) => {
      const text = exports.get(arg);
      return text === undefined ? app.replay(arg, choice.version) : replayFileInApp(app, { source: arg, text }, choice.version);
    }),
    { runsCode: true, notThroughApp: notThroughApp ? { command: 'replay', why: notThroughApp } : null },
  );

  async function replayEach(replayOne: (arg: string) => Promise<ReplayView>): Promise<number> {
    if (positionals.length === 1) {
      // one run: its error ends the command as any command's does (main.ts: 2 with --check, else 1)
      const v = await replayOne(positionals[0]);
      if (values.json) io.out(JSON.stringify(v));
      else printReplay(v, io);
      return values.check && !v.identical ? 1 : 0;
    }
    // several runs: each one's result is printed once known, so one run's error hides no other's divergence
    let isGivenWrong = false;
    for (const arg of positionals) {
      try {
        const v = await replayOne(arg);
        results.push(v);
        if (!values.json) printReplay(v, io);
      } catch (e) {
        // the same for every run, not one run's result: said once, exit 2 (main.ts) — under --json
        // each run's entry holds it, so the answer keeps its shape
        isGivenWrong ||= isCommandError(e, values);
        if (isGivenWrong && !values.json) throw e;
        const said = inCliWords(e);
        results.push({ run: arg, error: errorToJson(said) });
        if (!values.json) io.err(`stagecraft: ${arg}: ${errorLine(said)}`);
      }
    }
    if (values.json) io.out(JSON.stringify({ identical: results.every((r) => isReplayed(r) && r.identical), replays: results }));
    return isGivenWrong ? 2 : replayExit(results, values.check === true);
  }
}

/**
 * An error about what the command was given, the same for every run: a usage error, a --skill folder
 * that is no valid skill. Printed once and exit 2, as with one run — not once per run, and not read as
 * runs that failed. A --version hash that names no version of a run's skill, or an export file that
 * cannot be imported, is that run's own error: a hash names a version of one skill, and each file is
 * its own — so the result never depends on the order the runs were given in.
 */
function isCommandError(e: unknown, given: { skill?: string }): boolean {
  if (e instanceof UsageError) return true;
  const code = e instanceof StagecraftError ? e.code : '';
  return given.skill !== undefined && (code === 'skill_invalid' || code === 'bundle_invalid');
}

/** a run replayed, or the error that kept it from being replayed (with several runs, one run's error ends nothing) */
type ReplayResult = ReplayView | { run: string; error: ReturnType<typeof errorToJson> };

/**
 * --check: 1 when any run diverged (a divergence is what CI must see, whatever else failed), else 2 when
 * any could not be checked, else 0. Without --check, 1 when any could not be replayed.
 */
function replayExit(results: ReplayResult[], isCheck: boolean): number {
  const replayed = results.filter(isReplayed);
  const isAnyError = replayed.length < results.length;
  if (!isCheck) return isAnyError ? 1 : 0;
  if (replayed.some((v) => !v.identical)) return 1;
  return isAnyError ? 2 : 0;
}

const isReplayed = (r: ReplayResult): r is ReplayView => !('error' in r);

/** A run id, or an export file: imported first (checked, idempotent), then replayed with its own version unless told otherwise. */
async function replayOne(host: Host, arg: string, text: string | undefined, req: ReplayReq, io: Io, stopJson?: (stopped: StoppedReplayJson) => unknown): Promise<ReplayView> {
  if (text === undefined) return replayNamed(host, arg, req, io, stopJson);
  const { imported } = await importRuns(host, [{ source: arg, text }]);
  const { runId, version } = imported[0];
  return replayNamed(host, runId, req.version === undefined && req.skillDir === undefined ? { ...req, version } : req, io, stopJson);
}

type ReplayReq = { version?: string; skillDir?: string; trust?: boolean };

/** a replay stopped mid-run, under --json: in a replay's shape (runId the replayed run, replayRunId the replay), with what a stopped run says (stop-words.ts) */
type StoppedReplayJson = Omit<StoppedRunJson, 'runId'> & { runId: string; replayRunId: string };

/**
 * stopped by Ctrl-C or SIGTERM mid-run, the replay is left running as `run`'s run is: said the same way
 * (its id chosen here to name it), and under --json printed on stdout too (`stopJson`)
 */
function replayNamed(host: Host, runId: string, req: ReplayReq, io: Io, stopJson?: (stopped: StoppedReplayJson) => unknown): Promise<ReplayView> {
  const replayId = randomIds.newId('run');
  const unsay = sayHowToResumeOnStop(replayId, io, stopJson && ((stopped) => stopJson({ ...stopped, runId, replayRunId: replayId })), host.store);
  return replayRun(host, runId, { ...req, runId: replayId }).finally(unsay);
}

/** an exported run file replayed as replayOne replays it, by the app that holds the store: imported by it, then replayed (against its recorded version unless --version) */
async function replayFileInApp(app: AppClient, file: { source: string; text: string }, version: string | undefined): Promise<ReplayView> {
  const { importInApp } = await import('./export');
  const { imported } = await importInApp(app, file);
  return app.replay(imported[0].runId, version ?? imported[0].version);
}

function printReplay(v: ReplayView, io: Io): void {
  const head = `run ${v.runId} (${v.skill}, version ${short(v.version)})`;
  const counts = replayCounts(v.steps);
  if (v.identical) {
    io.out(`${head}: identical — ${counts}; replay ${v.replayRunId}`);
    return;
  }
  const first = v.divergences[0];
  io.out(`${head}: diverged at ${first.position} — ${plural(v.divergences.length, 'divergence')}; ${counts}; replay ${v.replayRunId}`);
  if (v.stoppedAt) io.out(`  the replay stopped at ${v.stoppedAt.position}: ${v.stoppedAt.message}`);
  v.divergences.forEach((d, i) => printDivergence(d, i + 1, io));
}

function printDivergence(d: ReplayDivergenceView, n: number, io: Io): void {
  io.out(`  ${n}. ${d.message}`);
  // a side's `said` (a validate that passed records null) in place of its value, as compare says it
  if (d.change === 'added') io.out(`       replayed: ${d.replayed?.said ?? oneLine(d.replayed?.value)}`);
  else if (d.change === 'removed') io.out(`       recorded: ${d.recorded?.said ?? oneLine(d.recorded?.value)}`);
  else if (d.diff !== null) for (const line of diffLines(d.diff, d.recorded?.value, { before: d.recorded?.said, after: d.replayed?.said })) io.out(`       ${line}`);
}

/** `--set PATH=JSON` → the edit; the value must be JSON (a string is quoted: --set 'title="New"') */
function parseSet(raw: string): { path: string; value: Json } {
  const eq = raw.indexOf('=');
  if (eq < 0) throw new UsageError(`--set ${raw}: write PATH=JSON, e.g. --set 'paragraphs[0]="New text"' or --set redactions=0.`);
  const text = raw.slice(eq + 1);
  try {
    return { path: raw.slice(0, eq), value: JSON.parse(text) as Json };
  } catch {
    throw new UsageError(`--set ${raw}: ${JSON.stringify(text)} is not JSON; a string needs quotes: --set ${shellWord(`${raw.slice(0, eq)}=${JSON.stringify(text)}`)}.`);
  }
}

/** what `fork` asks for that the app cannot do (null: it goes through the app, when the app holds the store) */
function forkNotThroughApp(values: { skill?: string; trust?: boolean; model?: string }): { command: string; why: string } | null {
  const why =
    values.skill !== undefined
      ? 'the app takes no folder of this machine as the version to fork with (--skill DIR).'
      : values.trust
        ? '--trust is for code run here, and the app runs the fork.'
        : values.model?.startsWith('scripted:')
          ? `--model ${shellWord(values.model)} may name a model script of this machine, and the app runs only a version's own scripts.`
          : null;
  return why ? { command: 'fork', why } : null;
}

/** a fork with no point named, of a run that ended with no failed step: said as on the store (its failed step is read from its log, as there) */
async function requireForkPoint(runId: string, app: AppClient): Promise<void> {
  const { status } = await app.run(runId);
  if (status === 'running' || status === 'queued') return; // the app says it has not ended, as the store does
  if (status === 'completed' || !failedStepPosition((await app.events(runId)) as RunEvent[])) throw noForkPoint(runId, status, CLI_FORK_WORDS);
}

/** an edit the app refused, named as the flag that made it (`--set PATH: …`), as on the store */
function inCliForkWords(e: unknown, set: { path: string }[]): unknown {
  if (!(e instanceof AppAnswerError) || e.code !== 'fork_edit_invalid') return e;
  const named = set.find((s) => e.message.startsWith(`set ${s.path}: `));
  return named ? new AppAnswerError(e.code, `--${e.message}`, e.httpStatus, e.details) : e;
}

/** the --value FILE's value, and its text (to locate a schema's errors in) */
async function readValue(spec: string, io: Io): Promise<{ value: Json; text: string }> {
  const text = await readArgText('--value', spec, io, { tooLarge: '', whenEmpty: 'give the value as JSON (a string in quotes), or use --set PATH=JSON.' });
  try {
    return { value: JSON.parse(text) as Json, text };
  } catch (e) {
    throw new UsageError(`--value ${spec} is not valid JSON: ${(e as Error).message}${jsonArgWhere(spec, text)}`);
  }
}

/**
 * An edited value its schema refused, each error also at FILE:line:col of the --value text (stdin for `-`),
 * as `run --input FILE` locates its input's: on the store and through the app alike (the error's
 * `schemaErrors` point into the value). Not with --set: the value checked is then not the file's text.
 */
function valueLocated(e: unknown, spec: string | undefined, read: { text: string } | undefined, hasSet: boolean): unknown {
  if (spec === undefined || !read || hasSet || !(e instanceof StagecraftError) || e.code !== 'fork_edit_invalid') return e;
  const schemaErrors = (e.details as { schemaErrors?: { pointer: string; message: string }[] }).schemaErrors;
  if (!Array.isArray(schemaErrors) || schemaErrors.length === 0) return e;
  e.message += jsonArgErrorLines(spec, read.text, schemaErrors, '(the value)')
    .map((l) => `\n${l}`)
    .join('');
  return e;
}

export async function forkCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(
    argv,
    {
      json: { type: 'boolean' },
      at: { type: 'string' },
      set: { type: 'string', multiple: true },
      value: { type: 'string' },
      version: { type: 'string' },
      skill: { type: 'string' },
      model: { type: 'string' },
      trust: { type: 'boolean' },
    },
    { min: 1, max: 1, names: 'one run id' },
  );
  const choice = versionChoice(values);
  // a spec that can name no model is the caller's mistake before the run is looked up (resume's order too)
  if (values.model !== undefined) checkModelSpec(values.model);
  const set = (values.set ?? []).map(parseSet);
  const read = values.value !== undefined ? await readValue(values.value, io) : undefined;
  const value = read?.value;
  const parent = positionals[0];
  // a fork that failed at a step (again) ends with the command that takes it on from there, as `run` and `resume` do
  const nextOf = async (runId: string, status: string, events: () => Promise<RunEvent[]>) => (values.json ? null : takeOnLine(runId, rerunPoint(status, await events())));
  const forked = await withHostOrApp<{ summary: RunSummaryView; forkPoint: string; version: string; next: string | null; versionFrom?: ForkVersionFrom }>(
    io,
    async (host) => {
      // stopped by Ctrl-C or SIGTERM mid-run, the fork is left running as `run`'s run is: said the same way
      const runId = randomIds.newId('run');
      const unsay = sayHowToResumeOnStop(runId, io, values.json ? (stopped) => ({ ...stopped, parentRunId: parent }) : undefined, host.store);
      const outcome = await forkRun(host, parent, { ...choice, at: values.at, set, value, model: values.model, localModelFiles: true, trust: values.trust, runId }).finally(unsay);
      const next = await nextOf(outcome.runId, outcome.status, () => host.store.readEvents(outcome.runId));
      return { summary: await summarizeRun(host.store, outcome), forkPoint: outcome.forkPoint, version: outcome.version, next, versionFrom: outcome.versionFrom };
    },
    async (app) => {
      // the fork point named or not, as on the store: said in the CLI's words (--at), not the API's
      if (values.at === undefined) await requireForkPoint(parent, app);
      const f = await app.fork(parent, { at: values.at, set, value: value as Json | undefined, version: choice.version, model: values.model }).catch((e: unknown) => Promise.reject(inCliForkWords(e, set)));
      const { summary } = await (await import('./through-app')).followRun(app, f.runId, io);
      const next = await nextOf(f.runId, summary.status, async () => (await app.events(f.runId)) as RunEvent[]);
      return { summary, forkPoint: f.forkPoint, version: f.version, next };
    },
    { runsCode: true, notThroughApp: forkNotThroughApp(values) },
  ).catch((e: unknown) => Promise.reject(valueLocated(e, values.value, read, set.length > 0)));
  const { summary, forkPoint, version, next, versionFrom } = forked;
  if (values.json) io.out(JSON.stringify({ ...summary, parentRunId: parent, forkPoint, version }));
  else {
    io.out(`fork of run ${parent} at ${forkPoint} (version ${short(version)}):`);
    io.out(reusedLine(summary.report, parent));
    // where the version came from (the run's folder, as it is now?) and which the parent ran: after the lines above, which callers read as before
    const from = versionFrom ? forkVersionLine(version, versionFrom, process.cwd()) : null;
    if (from) io.out(from);
    printSummary(summary, io);
    if (next) io.out(next);
  }
  return summary.status === 'completed' ? 0 : 1;
}

/** what to set one run beside, said when compare is given one */
const COMPARE_WITH_WHAT =
  "name the run to set it beside, first (A): a replay's or a fork's parent (parentRunId in `stagecraft runs --json`), or another run of its skill (`stagecraft runs --skill SKILL`).";

export async function compareCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(argv, { json: { type: 'boolean' } }, { min: 1, max: 2, names: 'two run ids' });
  if (positionals.length === 1) throw new UsageError(`expected two run ids, got ${positionals[0]}: ${COMPARE_WITH_WHAT}`);
  // `compare examples/a examples/b`: folders (or files) are not runs — said as what they are, as replay
  // says it, not as "no run with id examples/a"
  for (const arg of positionals) {
    if (isFolder(arg)) throw new UsageError(`${arg} is a folder: compare takes two run ids (\`stagecraft runs\` lists them); a skill's folder makes one with \`stagecraft run ${shellWord(arg)}\`.`);
    if (isPathLike(arg)) throw new UsageError(`${arg} is a path, not a run id: compare takes two run ids (\`stagecraft runs\` lists them); an exported run is compared once imported (\`stagecraft import FILE\`).`);
  }
  const c = await withHostOrApp(
    io,
    (host) => compareRuns(host, positionals[0], positionals[1]),
    (app) => app.compare(positionals[0], positionals[1]),
  );
  if (values.json) {
    io.out(JSON.stringify(c));
    return 0;
  }
  const col = (s: string) => s.padEnd(28);
  io.out(`${col('')}${col(`A ${c.a.runId}`)}B ${c.b.runId}`);
  io.out(`${col('skill')}${col(c.a.skill)}${c.b.skill}`);
  io.out(`${col('status')}${col(`${c.a.status} (${c.a.kind})`)}${c.b.status} (${c.b.kind})`);
  io.out(`${col('version')}${col(short(c.a.version))}${short(c.b.version)}`);
  io.out(`${col('steps')}${col(counted(c.a.steps))}${counted(c.b.steps)}`);
  for (const [label, side, other] of [['A', c.a, 'B'], ['B', c.b, 'A']] as const) {
    const note = insideAnsweredNote(side, other);
    if (note) io.out(`${col('')}${label}: ${note}`);
  }
  // a side none of whose turns reported its tokens has no figure to give: "0 / 0" would read as none used
  const tokens = (s: typeof c.a) => (noneReported(s.tokensNotReported) ? 'not reported' : `${counted(s.tokens.input)} / ${counted(s.tokens.output)}`);
  io.out(`${col('tokens in / out')}${col(tokens(c.a))}${tokens(c.b)}`);
  // a side's endpoint that did not report some turns' tokens: the figures above are of the turns that did
  for (const [label, side] of [['A', c.a], ['B', c.b]] as const) {
    if (side.tokensNotReported) io.out(`${col('')}${label}: ${notReportedText(side.tokensNotReported.turns, side.tokensNotReported.of)}`);
  }
  io.out(`${col('duration')}${col(`${counted(Math.round(c.a.durationMs))} ms`)}${counted(Math.round(c.b.durationMs))} ms`);
  const otherSkills = otherSkillsNote(c);
  if (otherSkills) io.out(otherSkills);
  // one derived from the other: the steps before a fork point are reused, a divergence there is the fork's own
  if (c.lineage) io.out(c.lineage);
  // a run beside itself is identical by definition: said, above the verdict callers read as before
  if (c.sameRun) io.out(sameRunNote(c.a.runId));
  io.out(c.identical ? 'identical: every step and the outcome are the same' : `first divergence: ${c.firstDivergence!.message}`);
  const MARK = { same: ' ', status: '!', output: '~', added: '+', removed: '-', not_reached: '·' } as const;
  // the edited value a fork was handed at its point, before the step rows there: no step row holds it (the rows are steps' outputs)
  const edit = c.forkEdit;
  const editAt = edit ? forkEditIndex(c.rows, edit.position) : -1;
  for (const [i, r] of c.rows.entries()) {
    if (edit && i === editAt) {
      io.out(`~ ${edit.position.padEnd(44)} ${forkEditWords(edit)}`);
      for (const [label, value] of [['A', edit.a], ['B', edit.b]] as const) io.out(`    ${label}: ${oneLine(value, 160)}`);
    }
    const ms = (s: typeof r.a) => (s ? `${s.status} ${counted(Math.round(s.durationMs))} ms${s.recorded ? ' (recorded)' : ''}` : '—');
    io.out(`${MARK[r.change]} ${r.position.padEnd(44)} ${ms(r.a).padEnd(26)} ${ms(r.b)}`);
  }
  return 0;
}

export async function regressCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(
    argv,
    { json: { type: 'boolean' }, version: { type: 'string' }, limit: { type: 'string' }, trust: { type: 'boolean' } },
    { min: 1, max: 1, names: 'one skill name' },
  );
  const limit = values.limit === undefined ? undefined : Number(values.limit);
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) throw new UsageError(`--limit must be a whole number ≥ 1, not ${JSON.stringify(values.limit)}`);
  const version = versionArg(values.version);
  // beside the app that holds the store: checked by the app (POST /api/skills/<name>/regress)
  const notThroughApp = values.trust
    ? '--trust is for code run here, and the app runs the check.'
    : limit !== undefined && limit > MAX_REGRESS_LIMIT
      ? `--limit ${limit}: the app checks at most ${MAX_REGRESS_LIMIT} past runs at once.`
      : null;
  const r = await withHostOrApp(
    io,
    (host) => regressSkill(host, positionals[0], { version, limit, trust: values.trust }),
    (app) => app.regress(positionals[0], { version, limit }),
    { runsCode: true, notThroughApp: notThroughApp ? { command: 'regress', why: notThroughApp } : null },
  );
  if (values.json) io.out(JSON.stringify(r));
  else {
    io.out(`${r.skill}: the postprocessor of version ${short(r.version)} over ${plural(r.checked, 'past run')}: ${r.changed.length ? `${counted(r.changed.length)} would change` : 'none would change'}`);
    for (const c of r.changed) {
      io.out(`  run ${c.runId}: ${c.recorded.status === c.now.status ? c.now.status : `${c.recorded.status} → ${c.now.status}`}${c.firstDivergence ? ` — first at ${c.firstDivergence.message}` : ''}`);
      for (const line of diffLines(c.diff, c.recorded.status === 'completed' ? c.recorded.output : { error: c.recorded.error })) io.out(`       ${line}`);
    }
    for (const s of r.skipped) io.err(`  run ${s.runId} skipped: ${s.reason}`);
  }
  return r.changed.length ? 1 : 0;
}
