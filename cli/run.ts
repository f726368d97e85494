/**
 * `stagecraft run <bundle|skill.md> [--input FILE|-] [--model SPEC] [--json] [--queue]`: exit 0 completed,
 * 1 failed/aborted, 2 usage/invalid skill. `--queue` records the run for `stagecraft worker` processes
 * and exits 0 at once (`{"runId", "status": "queued"}`); the embedded store has no workers, so there it
 * runs here, and says so.
 */
import path from 'node:path';
import { jsonTextDepth } from '../lib/kernel/json-depth';
import { MAX_JSON_DEPTH } from '../lib/server/limits';
import { BundleInvalidError, InputInvalidError, SkillValidationError, UsageError } from '../lib/kernel/errors';
import { shellWord } from '../lib/kernel/shell-word';
import { locateModelScript } from '../lib/models';
import { isJsonObject, type JsonObject } from '../lib/kernel/json';
import { startSkillRun } from '../lib/server/runs/start-run';
import { enqueueSkillRun } from '../lib/server/runs/enqueue-run';
import { closeRunQueues, databaseUrlOf, workersSetting } from '../lib/server/runs/run-source';
import { summarizeRun } from '../lib/server/runs/run-summary';
import { rerunPoint } from '../lib/server/runs/failed-step';
import { warmSkillRun, type WarmRun } from '../lib/server/runs/warm-run';
import { parse } from './args';
import { openOwnOrApp, withHost } from './store';
import type { Host } from '../lib/server/host';
import type { OpenedStore } from '../lib/store';
import { skillFileOf } from './validate';
import type { Io } from './main';
import { printSummary, takeOnLine } from './print';
import { jsonArgErrorLines, jsonArgWhere, readArgText } from './fs-words';
import { sayHowToResumeOnStop } from './stop-words';
import { randomIds } from '../lib/server/system';

/** the run's input, and the --input text it was read from (to locate its errors in) */
async function readInput(spec: string | undefined, io: Io): Promise<{ input: JsonObject; text?: string }> {
  if (spec === undefined) return { input: {} };
  const text = await readArgText('--input', spec, io, {
    tooLarge: "a run's input is a small JSON object; put large data in the run's workspace (--workspace DIR) and read it with file/read.",
    whenEmpty: "give the run's input as a JSON object (at least {}), or leave --input out.",
  });
  if (jsonTextDepth(text) > MAX_JSON_DEPTH) throw new UsageError(`--input ${spec} nests arrays or objects deeper than ${MAX_JSON_DEPTH} levels: flatten it.`);
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`--input ${spec} is not valid JSON: ${(e as Error).message}${jsonArgWhere(spec, text)}`);
  }
  if (!isJsonObject(v)) throw new UsageError(`--input ${spec} must hold a JSON object (the run's input), not ${Array.isArray(v) ? 'an array' : typeof v}`);
  return { input: v, text };
}

export async function runCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(
    argv,
    { json: { type: 'boolean' }, input: { type: 'string' }, model: { type: 'string' }, workspace: { type: 'string' }, queue: { type: 'boolean' } },
    { min: 1, max: 1, names: 'one bundle or skill.md' },
  );
  try {
    return await runSkill(positionals[0], values, io);
  } catch (e) {
    // the run's error names the first of them; validate lists them all
    const all = `All of them: stagecraft validate ${shellWord(positionals[0])}`;
    // located as `validate` locates them: from here when the skill was named by a relative path
    if (e instanceof SkillValidationError) throw new SkillValidationError(e.diagnostics.map((d) => ({ ...d, file: shownFile(positionals[0], d.file) })), all);
    if (e instanceof BundleInvalidError) throw new BundleInvalidError(e.problems, e.doing, all);
    throw e;
  }
}

/** a contract error on the input, each also at FILE:line:col of the --input text (stdin for `-`), as an editor takes it */
function inputLocated(e: InputInvalidError, spec: string, text: string): InputInvalidError {
  return new InputInvalidError(e.phase, e.errors, jsonArgErrorLines(spec, text, e.errors, '(the input)'));
}

/** a finding's file as `stagecraft validate` shows it: relative to here when the skill was named by a relative path */
function shownFile(named: string, file: string): string {
  return path.isAbsolute(named) || !path.isAbsolute(file) ? file : path.relative(process.cwd(), file) || file;
}

async function runSkill(bundle: string, values: RunValues & { input?: string }, io: Io): Promise<number> {
  const { file, bundleDir } = skillFileOf(bundle);
  const took = scriptTaken(values.model, bundleDir);
  if (took) io.err(`stagecraft: ${took}`);
  const { input, text: inputText } = await readInput(values.input, io);
  // the store starts opening (PGlite reads and compiles its files off this thread) while the skill
  // compiles here and the run's first worker starts (warm-run.ts); a named workspace or the queue
  // takes the normal path
  const opening = openOwnOrApp();
  const warm = values.queue || values.workspace !== undefined ? null : warmSkillRun(process.env, process.cwd(), file);
  let isStarted = false;
  try {
    const held = await opening;
    // the app holds the embedded store (`npm start` in another terminal): the run is the app's
    if ('appUrl' in held) return await (await import('./run-through-app')).runThroughApp(held.appUrl, held.locked, { ...values, bundle: file, input }, io);
    return await withHost(async (host) => {
      try {
        const code = await runHere(host, { file, input, values, io, warm });
        // an outcome came back: the run is recorded (its end is its last commit), its workspace stays
        isStarted = true;
        return code;
      } catch (e) {
        isStarted = !!warm && (await host.store.getRun(warm.runId).catch(() => null)) !== null;
        throw e;
      }
    }, { runsCode: true, opening: Promise.resolve(held.store) });
  } catch (e) {
    throw e instanceof InputInvalidError && values.input !== undefined && inputText !== undefined ? inputLocated(e, values.input, inputText) : e;
  } finally {
    if (warm && !isStarted) await warm.discard();
  }
}

/**
 * `--model scripted:NAME` where the bundle and the working directory both hold a file NAME: the bundle's
 * is taken (lib/models: locateModelScript), and said, with how to take the other.
 */
function scriptTaken(spec: string | undefined, bundleDir: string): string | null {
  const name = spec?.startsWith('scripted:') ? spec.slice('scripted:'.length) : '';
  if (!name) return null;
  const at = locateModelScript(name, bundleDir, process.cwd());
  if (!at.file || !at.other) return null;
  return `--model ${shellWord(spec!)}: took the bundle's ${at.file}, not ${at.other}; to take that one, name it by its path (--model ${shellWord(`scripted:${at.other}`)}).`;
}

const QUEUE_NEEDS_POSTGRES =
  '--queue needs a Postgres store (set DATABASE_URL) for `stagecraft worker` processes to drive the run: the embedded store belongs to one process, so this run is driven here.';

type RunValues = { json?: boolean; model?: string; workspace?: string; queue?: boolean };

/** the run itself, on the opened store (queued for the workers with --queue on Postgres) */
async function runHere(host: Host & { store: OpenedStore }, r: { file: string; input: JsonObject; values: RunValues; io: Io; warm: WarmRun | null }): Promise<number> {
  const { file, input, values, io, warm } = r;
  const setting = workersSetting(host);
  if (setting.notice) process.stderr.write(`stagecraft: ${setting.notice}\n`);
  if (values.queue && databaseUrlOf(host)) {
    try {
      const queued = await enqueueSkillRun(host, { bundle: file, input, model: values.model, workspace: values.workspace });
      if (values.json) io.out(JSON.stringify(queued));
      else io.out(`run ${queued.runId}: queued; a \`stagecraft worker\` drives it (follow it with \`stagecraft events ${queued.runId}\`; with --follow it waits for the run's end and exits as run does)`);
      return 0;
    } finally {
      await closeRunQueues();
    }
  }
  // said in the words of what was asked (--queue), not of STAGECRAFT_WORKERS, which the caller may not have set
  if (values.queue && !setting.notice) process.stderr.write(`stagecraft: ${QUEUE_NEEDS_POSTGRES}\n`);
  const early = warm ? { runId: warm.runId, sandbox: warm.sandbox, read: warm.read } : { runId: randomIds.newId('run') };
  const unsay = sayHowToResumeOnStop(early.runId, io, values.json ? (stopped) => stopped : undefined, host.store);
  const outcome = await startSkillRun(host, { bundle: file, input, model: values.model, workspace: values.workspace, ...early }).finally(unsay);
  const summary = await summarizeRun(host.store, outcome);
  if (values.json) io.out(JSON.stringify(summary));
  else {
    printSummary(summary, io);
    const next = takeOnLine(outcome.runId, rerunPoint(outcome.status, await host.store.readEvents(outcome.runId)));
    if (next) io.out(next);
  }
  return outcome.status === 'completed' ? 0 : 1;
}
