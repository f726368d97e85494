/**
 * `stagecraft fork RUN --at POSITION`, `POST /api/runs/<id>/fork`: a new run
 * (kind `fork`, parent the forked run, its fork point recorded) whose steps
 * before the point are answered from the parent's log — recorded, not run
 * again — with the value at the point edited or not, and everything after it
 * live: with the skill's latest version (or the one asked for), and the
 * parent's model (or another one, `model`).
 *
 * Before anything is recorded the fork is probed (lib/kernel/fork-probe.ts):
 * the point must be one this version reaches on the recording, the steps
 * before it must be the recorded ones, and the edited value must fit its
 * schema — else a 4xx (exit 2), and no run.
 *
 * "Rerun from here" (`rerunFrom`) is a fork with no edit: the step at the
 * point runs again, live — the one click after a fix. On a failed or aborted
 * run with no point given, the point is its failed step.
 */
import { shownModel } from '../../views/shown-model';
import { ForkPointError, UsageError } from '../../kernel/errors';
import { forkPointName, forkPointOf, parseForkPosition, setAtPath, RUN_INPUT_POINT, type ForkPoint } from '../../kernel/fork-edits';
import { probeForkPoint } from '../../kernel/fork-probe';
import type { Json, JsonObject } from '../../kernel/json';
import type { RunEvent, RunRecord } from '../../kernel/ports';
import { startRun, type RunOutcome } from '../../kernel/runner';
import type { ForkedRunView, ForkPointView } from '../../views';
import { kernelDeps, modelFor, type Host } from '../host';
import { randomIds, systemClock } from '../system';
import { failedStepPosition } from './failed-step';
import { chooseVersion, endedRun, requireTrustedCode, type ChosenVersion, type VersionChoice } from './derived-version';
import { runChildSkill } from './child-skill';
import { childRunFns, storedModelSpec } from './start-run';
import { serverLog } from '../log';

/** What a fork's errors call its fields: the CLI's flags, or the API's body fields. */
export type ForkWords = { set: string; at: string };
export const CLI_FORK_WORDS: ForkWords = { set: '--set', at: '--at POSITION' };
export const API_FORK_WORDS: ForkWords = { set: 'set', at: '"at": POSITION' };

export type ForkRequest = Pick<VersionChoice, 'version' | 'skillDir'> & {
  /** the fork point (default on a failed or aborted run: its failed step) */
  at?: string;
  /** the whole new value at the point (parsed JSON) */
  value?: unknown;
  /** edits of the value at the point, in order (parsed JSON values) */
  set?: { path: string; value: unknown }[];
  /** another model for the rest of the run (a spec, as `run --model` takes) */
  model?: string;
  /** model scripts may be any file of this machine, as for `run --model` (the CLI); else only the bundle's (the app) */
  localModelFiles?: boolean;
  trust?: boolean;
  /** what errors call the fields: the CLI's flags by default (`launchFork`, the app's, always names the API's fields) */
  words?: ForkWords;
  /** the fork's id, chosen by the caller (the CLI, to name it if it is stopped mid-run); default a new one */
  runId?: string;
};

type PreparedFork = { run: RunRecord; chosen: ChosenVersion; events: RunEvent[]; point: ForkPoint; forkPoint: string; input: JsonObject; model: string | undefined };

/** The model a fork runs with: the one asked for, else the parent's (a script: this version's copy of it). */
export function forkModel(run: Pick<RunRecord, 'model'>, chosen: Pick<ChosenVersion, 'files' | 'copyDir'>, req: Pick<ForkRequest, 'model' | 'localModelFiles'>): string | undefined {
  const inBundle = (spec: string) => {
    const file = spec.slice('scripted:'.length).replace(/^\.\//, '');
    return Object.prototype.hasOwnProperty.call(chosen.files, file);
  };
  const asked = req.model;
  if (asked !== undefined) {
    if (!asked.startsWith('scripted:') || inBundle(asked)) return storedModelSpec(asked, chosen.files, chosen.copyDir);
    return req.localModelFiles ? asked : storedModelSpec(asked, chosen.files, chosen.copyDir);
  }
  if (run.model.startsWith('openai')) return run.model;
  if (!run.model.startsWith('scripted:')) return undefined; // a replay's: the bundle's default
  // the parent's script: this version's copy of it — by its path in the skill where the parent ran a
  // version's copy (scripts/good.yaml), else where the version has one of that file name
  const shown = shownModel(run.model);
  const inSkill = shown === run.model ? null : shown.slice('scripted:'.length);
  const name = run.model.slice('scripted:'.length).split('/').pop() ?? '';
  for (const file of [inSkill, name]) {
    if (file && Object.prototype.hasOwnProperty.call(chosen.files, file)) return storedModelSpec(`scripted:${file}`, chosen.files, chosen.copyDir);
  }
  return req.localModelFiles ? run.model : undefined;
}

/** A fork with no point named of a run with no failed step to rerun from (the CLI beside the app asks it too) */
export function noForkPoint(runId: string, status: string, words: ForkWords): UsageError {
  return new UsageError(`Name the fork point of run ${runId} (${words.at}, e.g. a phase name, draft/r2/model or __post__/0): ${status === 'completed' ? 'it completed, so there is no failed step to rerun from' : 'no failed step is recorded'}.`);
}

async function prepareFork(host: Host, runId: string, req: ForkRequest): Promise<PreparedFork> {
  const run = await endedRun(host, runId);
  const events = await host.store.readEvents(runId);
  const words = req.words ?? CLI_FORK_WORDS;
  const at = req.at ?? (run.status === 'completed' ? null : failedStepPosition(events));
  if (!at) throw noForkPoint(runId, run.status, words);
  const asked = parseForkPosition(at);
  const hasEdit = req.value !== undefined || (req.set?.length ?? 0) > 0;
  const chosen = await chooseVersion(host, run.skillName, { version: req.version, skillDir: req.skillDir, fallbackVersionId: run.skillVersionId, runBundleDir: run.bundleDir, forRun: run });
  requireTrustedCode(host, chosen, { trust: req.trust, what: `Forking run ${runId}` });
  // the point is probed with no edit first: the value there is what the edits apply to
  const probe = await probeForkPoint(chosen.plan, { clock: systemClock, ids: randomIds }, { input: run.input, parentRunId: runId, events, point: forkPointOf(at, hasEdit ? null : undefined) });
  let point: ForkPoint = forkPointOf(at, undefined);
  if (hasEdit) {
    if (!probe.check) throw new ForkPointError('fork_edit_invalid', `${at} holds no value to edit; fork there without an edit to run that step again.`, { position: at });
    let value = req.value !== undefined ? (req.value as Json) : probe.base;
    for (const s of req.set ?? []) value = setAtPath(value, s.path, s.value as Json, words.set);
    const checked = probe.check(value);
    if (checked.errors.length) {
      // schemaErrors: each at its JSON pointer into the value as edited, for whoever holds its text to locate (the CLI's --value FILE)
      const details: JsonObject = { position: at, errors: checked.errors };
      if (checked.schemaErrors) details.schemaErrors = checked.schemaErrors;
      throw new ForkPointError('fork_edit_invalid', `The edited value at ${at} does not fit: ${checked.errors.join('; ')}. Nothing was run.`, details);
    }
    point = { at: asked.at, target: asked.target, value: checked.value };
  }
  const input = point.at === RUN_INPUT_POINT && point.value !== undefined ? (point.value as JsonObject) : run.input;
  const model = forkModel(run, chosen, req);
  // an unusable model is refused now, not recorded as a failed fork
  modelFor(host, model, chosen.copyDir);
  return { run, chosen, events, point, forkPoint: forkPointName(point, asked), input, model };
}

async function execute(host: Host, p: PreparedFork, onCreated?: (runId: string) => void, forkId?: string): Promise<RunOutcome> {
  const runId = forkId ?? randomIds.newId('run');
  const deps = kernelDeps(host, modelFor(host, p.model, p.chosen.copyDir), { runId, bundleDir: p.chosen.copyDir }, {
    runChildSkill: (r) => runChildSkill(host, { ...r, fromBundleDir: p.chosen.bundleDir }, childRunFns),
  });
  try {
    return await startRun(p.chosen.plan, deps, {
      input: p.input,
      skillText: p.chosen.files['skill.md'] ?? '',
      skillVersionId: p.chosen.versionId,
      runId,
      bundleDir: p.chosen.bundleDir,
      forkPoint: p.forkPoint,
      derivation: { mode: 'fork', parentRunId: p.run.id, events: p.events, point: p.point },
      onCreated,
    });
  } finally {
    await deps.close();
  }
}

/**
 * Where a fork's version came from, for the CLI to say beside its hash: the folder it was read from
 * (null: a stored version) and whether it was recorded as a new version just now, and the version the
 * parent ran (null when unknown)
 */
export type ForkVersionFrom = { folder: string | null; isNew: boolean; parentVersion: string | null };

/** Forks a run and runs the fork to its end (the CLI). */
export async function forkRun(host: Host, runId: string, req: ForkRequest): Promise<RunOutcome & { forkPoint: string; version: string; versionFrom: ForkVersionFrom }> {
  const p = await prepareFork(host, runId, req);
  const parent = p.run.skillVersionId ? await host.skills.getVersionById(p.run.skillVersionId) : null;
  const versionFrom: ForkVersionFrom = { folder: p.chosen.origin === 'folder' ? p.chosen.bundleDir : null, isNew: p.chosen.isNew === true, parentVersion: parent?.hash ?? null };
  return { ...(await execute(host, p, undefined, req.runId)), forkPoint: p.forkPoint, version: p.chosen.hash, versionFrom };
}

/** Reruns a run from a step (its failed step by default) with the skill's latest version, and no edit. */
export function rerunFrom(host: Host, runId: string, at?: string): Promise<RunOutcome & { forkPoint: string; version: string; versionFrom: ForkVersionFrom }> {
  return forkRun(host, runId, { at });
}

/** Forks a run and answers as soon as the fork is recorded; it goes on in the background (the app). */
export async function launchFork(host: Host, runId: string, req: ForkRequest): Promise<ForkedRunView> {
  const p = await prepareFork(host, runId, { ...req, words: API_FORK_WORDS });
  let created!: (id: string) => void;
  const recorded = new Promise<string>((resolve) => (created = resolve));
  const done = execute(host, p, created);
  done.then(
    (o) => serverLog.info(`stagecraft: fork ${o.runId} of run ${runId} at ${p.forkPoint}: ${o.status}`),
    (e) => serverLog.error(`stagecraft: fork of run ${runId} at ${p.forkPoint} stopped: ${(e as Error).message}`),
  );
  const forkId = await Promise.race([recorded, done.then((o) => o.runId)]);
  return { runId: forkId, parentRunId: runId, forkPoint: p.forkPoint, version: p.chosen.hash };
}

/**
 * The value at a fork point, as the fork would start from it (`GET /api/runs/<id>/fork?at=`): what
 * the "Fork from here" editor opens with. `editable` is false where there is nothing to edit (a rerun
 * of a step is all a fork there can be).
 */
export async function forkPointValue(host: Host, runId: string, at: string | null, req: Pick<ForkRequest, 'version'> = {}): Promise<ForkPointView> {
  if (!at) throw new UsageError('Name the fork point: ?at=POSITION (a phase name, draft/r2/model, __post__/3, input, …).');
  const run = await endedRun(host, runId);
  const events = await host.store.readEvents(runId);
  const chosen = await chooseVersion(host, run.skillName, { version: req.version, fallbackVersionId: run.skillVersionId, runBundleDir: run.bundleDir, forRun: run });
  const probe = await probeForkPoint(chosen.plan, { clock: systemClock, ids: randomIds }, { input: run.input, parentRunId: runId, events, point: forkPointOf(at, null) });
  return { runId, at, kind: probe.kind, value: probe.base, editable: probe.check !== null, schema: probe.check?.schema ?? null, version: chosen.hash };
}
