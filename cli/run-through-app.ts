/**
 * `stagecraft run DIR` while the app holds the embedded store (`npm start` in another terminal): the
 * folder is read and checked here as on the store (the same findings, naming the folder's skill.md;
 * the same input check), its files are sent with the run (`POST /api/runs` with `files`: the app records
 * them as a version the way a run on the store does — content-addressed: the same files, the same
 * version), and the run is followed to its end and printed as on the store, byte for byte.
 *
 * What the app cannot take stays `store_locked`, saying why: `--workspace DIR` (the app takes no folder
 * of this machine for a run's workspace), a `--model scripted:FILE` outside the bundle (the app
 * runs only a bundle's own model scripts), and a skill that names run_skill (its children are the
 * folders beside it here, the stored skills there). Ctrl-C leaves the run going on in the app, and says how to
 * abort it.
 */
import path from 'node:path';
import { BundleInvalidError, type StoreUnavailableError } from '../lib/kernel/errors';
import type { JsonObject } from '../lib/kernel/json';
import type { RunEvent } from '../lib/kernel/ports';
import { locateModelScript } from '../lib/models';
import { compileSkill } from '../lib/skill/compile';
import { requireInputFits } from '../lib/skill/input-check';
import { readFolder } from '../lib/server/runs/start-run';
import { rerunPoint } from '../lib/server/runs/failed-step';
import { shellWord } from '../lib/kernel/shell-word';
import { lockedByApp, notThroughApp } from './app-holder';
import { followRun, reachApp } from './through-app';
import { printSummary, takeOnLine } from './print';
import type { Io } from './main';

export type RunThroughApp = { bundle: string; input: JsonObject; json?: boolean; model?: string; workspace?: string; queue?: boolean };

const QUEUE_IN_THE_APP = '--queue: the app holds the embedded store, which has no `stagecraft worker` processes: the app drives this run.';

/** The run in the app at `url` (which holds the store: `locked` said so); what the command exits with. */
export async function runThroughApp(url: string, locked: StoreUnavailableError, r: RunThroughApp, io: Io): Promise<number> {
  const cannot = (why: string) => notThroughApp(locked, url, 'run', why);
  if (r.workspace !== undefined) throw cannot('the app takes no folder of this machine as a run\'s workspace (--workspace).');
  const { dir, files, problems } = readFolder(process.cwd(), r.bundle);
  // a run on the store finds its run_skill children as the folders beside this one; the app's, as its stored skills
  if (/\brun_skill\b/.test(files['skill.md'] ?? '')) throw cannot("its skill.md names run_skill, whose children a run here finds as the folders beside it, and the app's runs as its stored skills.");
  const model = appModelSpec(r.model, dir);
  if (model === null) throw cannot(`--model ${shellWord(r.model!)} names a model script outside the bundle, and the app runs only a bundle's own scripts.`);
  // the findings and the input check of a run on the store, before anything is sent
  const plan = compileSkill(files['skill.md'], { file: path.join(dir, 'skill.md'), bundleDir: dir }).plan;
  if (problems.length) throw new BundleInvalidError(problems, 'run');
  requireInputFits(plan, r.input);

  const app = await reachApp(url, (why) => lockedByApp(locked, url, why));
  io.err(`(through the app at ${url}: it holds the embedded store)`);
  if (r.queue) io.err(`stagecraft: ${QUEUE_IN_THE_APP}`);
  const runId = await app.startRun({ skill: plan.name, files, input: r.input, ...(model ? { model } : {}) });
  const { run, summary } = await followRun(app, runId, io);
  if (r.json) io.out(JSON.stringify(summary));
  else {
    printSummary(summary, io);
    const next = takeOnLine(runId, rerunPoint(run.status, (await app.events(runId)) as RunEvent[]));
    if (next) io.out(next);
  }
  return run.status === 'completed' ? 0 : 1;
}

/**
 * `--model` as the app takes it: a model script named by the bundle path of the bundle's file the
 * run on the store would take (its `scripted:FILE` is looked for in the bundle first, then here);
 * null for a script found only outside the bundle. A name found nowhere is sent as given, for the app
 * to say which scripts the bundle has.
 */
function appModelSpec(spec: string | undefined, dir: string): string | undefined | null {
  if (spec === undefined || !spec.startsWith('scripted:')) return spec;
  const name = spec.slice('scripted:'.length);
  const { file } = locateModelScript(name, dir, process.cwd());
  if (!file) return spec;
  const rel = path.relative(dir, file);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return null;
  return `scripted:${rel.split(path.sep).join('/')}`;
}
