/**
 * Starting a run. Every run records the skill version it runs and executes
 * from that version's read-only copy (skills/materialize.ts), so it can always
 * be inspected, replayed and exported with the exact bundle it ran:
 *
 * - `startSkillRun`: a bundle folder (the CLI's `run DIR`, a `run_skill` child
 *   of such a run) — the folder's files become a version of its skill;
 * - `startStoredRun` / `launchStoredRun`: a stored version (the app), the
 *   latest or one named by hash; `launchStoredRun` answers as soon as the run
 *   is recorded and lets it go on in the background.
 *
 * An invalid skill (SkillValidationError), a bundle the store cannot keep
 * (BundleInvalidError), an input that breaks the entry phase's input contract
 * (InputInvalidError) or an unusable model (UsageError) is refused before
 * anything is recorded. `run_skill` inside the run comes back here
 * (child-skill.ts).
 */
import path from 'node:path';
import { mkdirSync, realpathSync, statSync, symlinkSync } from 'node:fs';
import type { JsonObject } from '../../kernel/json';
import { BundleInvalidError, SkillValidationError, UsageError } from '../../kernel/errors';
import type { Plan } from '../../kernel/plan';
import type { CodeSandbox } from '../../kernel/ports';
import { queueRun, startRun, type RunOutcome } from '../../kernel/runner';
import { compileSkill } from '../../skill/compile';
import { checkBundle, type BundleFiles, type BundleProblem } from '../../skill/bundle';
import { requireInputFits } from '../../skill/input-check';
import { kernelDeps, modelFor, type Host } from '../host';
import { checkModelSpec } from '../../models';
import { randomIds, systemClock } from '../system';
import { readBundleDir } from '../skills/bundle-dir';
import { materializeVersion } from '../skills/materialize';
import { bundleHash } from '../../store/skills';
import { skillMdFacts } from '../skills/skill-text';
import { runChildSkill, type RunFns } from './child-skill';
import { resumeSkillRun } from './resume-run';
import { traceRunEnd } from './trace-run';
import { asSkill, checkedFromCopy, compileCopy } from './compiled-copies';

const ENDED = new Set(['completed', 'failed', 'aborted']);

/** A run that ended here is sent as spans (when OTLP export is configured); the outcome passes through. */
export function endTraced(host: Host, driver: JsonObject | undefined, outcome: RunOutcome): RunOutcome {
  if (ENDED.has(outcome.status)) traceRunEnd(host, outcome.runId, driver);
  return outcome;
}

/** how a `run_skill` child is started or resumed (resume-run.ts hands the same to a resumed parent) */
export const childRunFns: RunFns = {
  start: (host, req) => (req.bundle !== undefined ? startSkillRun(host, { ...req, bundle: req.bundle }) : startStoredRun(host, { ...req, skill: req.skill as string })),
  resume: (host, id) => resumeSkillRun(host, id),
};

type Common = {
  input: JsonObject;
  /** the folder the run's file ops act on (the CLI's --workspace); default: a new one of its own under the data dir */
  workspace?: string;
  /** model spec; default: the bundle's model.yaml, else the configured endpoint */
  model?: string;
  parentRunId?: string | null;
  /** a caller-chosen id (idempotent triggers, tests); default: a fresh one */
  runId?: string;
  /** the run's sandbox, made ahead for `runId` and this version's copy (warm-run.ts: its first worker may be up already) */
  sandbox?: CodeSandbox;
};

export type StartRunRequest = Common & {
  /** a bundle folder or its skill.md */
  bundle: string;
  /**
   * The folder as already read (warm-run.ts: the files whose copy `sandbox` binds), so the run
   * records and runs exactly those files and the folder is read once; default: read now.
   */
  read?: FolderRead;
};

/** a bundle folder and its files, read without a problem */
export type FolderRead = { dir: string; files: BundleFiles };

export type StoredRunRequest = Common & {
  skill: string;
  /** a version hash (or a unique prefix of it); default: the latest */
  version?: string;
};

/** A run ready to go: the plan compiled from the version's copy, and what to record. */
/** `isNew`: a folder's files recorded as a version just now (absent: a stored version, or the folder's known one) */
export type Prepared = { plan: Plan; files: BundleFiles; versionId: string; copyDir: string; origin: string; model: string | undefined; isNew?: true };

/**
 * Where a bundle argument points (relative to `cwd`): a folder, or a skill.md — else a usage error
 * naming it. The CLI checks a `--skill` folder with it before any run is looked up.
 */
export function bundlePath(cwd: string, bundle: string): { given: string; isFolder: boolean } {
  const given = path.resolve(cwd, bundle);
  let isFolder;
  try {
    isFolder = statSync(given).isDirectory();
  } catch {
    throw new UsageError(`No skill bundle at ${bundle}: the path does not exist. Pass a bundle folder that holds skill.md, or the path of a skill.md.`, { path: given });
  }
  // any other file stood for its folder's skill.md (`replay --skill dir/notes.txt` replayed dir)
  if (!isFolder && path.basename(given) !== 'skill.md') {
    throw new UsageError(`${bundle} is not a skill.md: pass a bundle folder that holds skill.md, or the path of a skill.md.`, { path: given });
  }
  return { given, isFolder };
}

/** A bundle folder's files (`read`: as already read), as a version of its skill, with its read-only copy. */
export async function prepareFolder(host: Host, bundle: string, read?: FolderRead): Promise<Omit<Prepared, 'model'>> {
  if (read) return recordFolder(host, read.dir, read.files);
  const { dir, files, problems } = readFolder(host.cwd, bundle);
  return recordFolder(host, dir, files, problems);
}

/**
 * A bundle folder's files as a run reads them (`bundle`: the folder or its skill.md, relative to `cwd`),
 * and the problems that would keep it from being kept; a skill.md missing or not UTF-8 is refused here.
 */
export function readFolder(cwd: string, bundle: string): { dir: string; files: BundleFiles; problems: BundleProblem[] } {
  const { given, isFolder } = bundlePath(cwd, bundle);
  const dir = isFolder ? given : path.dirname(given);
  const { files, problems } = readBundleDir(dir);
  // a skill.md read and refused (not UTF-8, over its size limit, unreadable): that finding, at skill.md
  const unreadable = problems.find((p) => p.path === 'skill.md' && p.code !== 'bundle_no_skill_md');
  if (unreadable) {
    throw new SkillValidationError([
      { severity: 'error', rule: unreadable.code, message: unreadable.message, file: path.join(dir, 'skill.md'), line: unreadable.line ?? 1, column: unreadable.column ?? 1, path: '' },
    ]);
  }
  if (problems.some((p) => p.code === 'bundle_no_skill_md')) {
    throw new UsageError(`No skill.md in ${dir}: a skill bundle is a folder holding skill.md (YAML frontmatter, then the prompts). Create it or pass another folder.`, { path: dir });
  }
  return { dir, files, problems };
}

/** The folder's files checked, recorded as a version (content-addressed) and copied read-only. */
async function recordFolder(host: Host, dir: string, files: BundleFiles, problems: BundleProblem[] = []): Promise<Omit<Prepared, 'model'>> {
  const shown = path.join(dir, 'skill.md');
  // findings first, against the folder as the author sees it (before anything is recorded); when
  // its copy is compiled already (warm-run.ts) and the folder would find the same, not twice
  const checked = checkedFromCopy(path.join(host.bundlesDir, bundleHash(files)), dir, shown) ?? compileSkill(files['skill.md'], { file: shown, bundleDir: dir }).plan;
  if (problems.length) throw new BundleInvalidError(problems, 'run');
  const saved = await host.skills.saveVersion(checked.name, files, { mode: 'record', origin: 'run', description: skillMdFacts(files['skill.md']).description });
  const copyDir = materializeVersion(host.bundlesDir, { hash: saved.hash, files });
  return { plan: compileCopy(files, copyDir, shown), files, versionId: saved.versionId, copyDir, origin: dir, ...(saved.isNew ? { isNew: true as const } : {}) };
}

/**
 * A bundle's files sent in place of a stored version (`POST /api/runs` with `files`: the CLI's `run DIR`
 * while the app holds the store), recorded as `run DIR` records its folder: checked and compiled first,
 * then a version of `skill` (content-addressed: a known one is left as it was). Answers its hash.
 */
export async function recordFiles(host: Host, skill: string, files: BundleFiles): Promise<string> {
  const problems = checkBundle(files);
  if (problems.length) throw new BundleInvalidError(problems, 'run');
  if (!Object.prototype.hasOwnProperty.call(files, 'skill.md')) throw new UsageError('The files hold no skill.md: a skill bundle is a folder holding skill.md.');
  const hash = bundleHash(files);
  const plan = compileCopy(files, materializeVersion(host.bundlesDir, { hash, files }), 'skill.md');
  if (plan.name !== skill) throw new UsageError(`The files are skill ${plan.name} (the name in their skill.md), not ${skill}.`, { skill, name: plan.name });
  await host.skills.saveVersion(skill, files, { mode: 'record', origin: 'run', description: skillMdFacts(files['skill.md']).description });
  return hash;
}

/** A stored version with its read-only copy. */
export async function prepareStored(host: Host, skill: string, version?: string): Promise<Omit<Prepared, 'model'>> {
  const v = await host.skills.getVersion(skill, version);
  const copyDir = materializeVersion(host.bundlesDir, v);
  return { plan: asSkill(compileCopy(v.files, copyDir, 'skill.md'), v.skillName), files: v.files, versionId: v.id, copyDir, origin: copyDir };
}

/**
 * A model spec as a stored run takes it: `scripted:<path>` names a model script of the bundle
 * (never a file of the server), `openai` / `openai:MODEL` the configured endpoint.
 */
export function storedModelSpec(spec: string | undefined, files: BundleFiles, copyDir: string): string | undefined {
  if (spec === undefined) return spec;
  // an unknown spec is told the forms a stored run takes (the API's "the working directory's" script is none of them)
  if (!spec.startsWith('scripted:')) {
    checkModelSpec(spec, 'stored');
    return spec;
  }
  const rel = spec.slice('scripted:'.length).replace(/^\.\//, '');
  if (!Object.prototype.hasOwnProperty.call(files, rel)) {
    const scripts = Object.keys(files).filter((p) => /\.ya?ml$/.test(p));
    throw new UsageError(`The model script ${rel} is not a file of this skill${scripts.length ? `; its YAML files: ${scripts.join(', ')}` : ''}.`, { model: spec });
  }
  return `scripted:${path.join(copyDir, ...rel.split('/'))}`;
}

/** The named folder as the run's workspace: its place under the data dir links to it (resume finds it there). */
function useWorkspace(host: Host, runId: string, dir: string): void {
  let real: string;
  try {
    real = realpathSync(path.resolve(host.cwd, dir));
  } catch {
    throw new UsageError(`--workspace ${dir} does not exist: create the folder, or name the one the run's file ops should act on.`);
  }
  if (!statSync(real).isDirectory()) throw new UsageError(`--workspace ${dir} is not a folder: name the folder the run's file ops should act on.`);
  mkdirSync(host.workspacesDir, { recursive: true });
  symlinkSync(real, path.join(host.workspacesDir, runId));
}

async function execute(host: Host, p: Prepared, req: Common, onCreated?: (runId: string) => void): Promise<RunOutcome> {
  const model = modelFor(host, p.model, p.copyDir, p.origin);
  const runId = req.runId ?? randomIds.newId('run');
  if (req.workspace !== undefined) useWorkspace(host, runId, req.workspace);
  const deps = kernelDeps(host, model, { runId, bundleDir: p.copyDir }, {
    runChildSkill: (r) => runChildSkill(host, { ...r, fromBundleDir: p.origin }, childRunFns),
    ...(req.sandbox ? { sandbox: req.sandbox } : {}),
  });
  try {
    return endTraced(host, deps.driver, await startRun(p.plan, deps, {
      input: req.input,
      skillText: p.files['skill.md'] ?? '',
      parentRunId: req.parentRunId ?? null,
      skillVersionId: p.versionId,
      runId,
      bundleDir: p.origin,
      onCreated,
    }));
  } finally {
    await deps.close();
  }
}

/** Runs a bundle folder to its end. */
export async function startSkillRun(host: Host, req: StartRunRequest): Promise<RunOutcome> {
  const prepared = await prepareFolder(host, req.bundle, req.read);
  // as a stored run's (prepareStoredRun): an input the entry phase's contract refuses is no run
  requireInputFits(prepared.plan, req.input);
  return execute(host, { ...prepared, model: req.model }, req);
}

export async function prepareStoredRun(host: Host, req: StoredRunRequest): Promise<Prepared> {
  const prepared = await prepareStored(host, req.skill, req.version);
  requireInputFits(prepared.plan, req.input);
  const model = storedModelSpec(req.model, prepared.files, prepared.copyDir);
  // an unusable model is refused now, not recorded as a failed run; a skill without a script is named
  // as its caller named it, not by its version's copy under the data dir
  modelFor(host, model, prepared.copyDir, `of skill ${req.skill}`);
  return { ...prepared, model };
}

/** Runs a stored version to its end. */
export async function startStoredRun(host: Host, req: StoredRunRequest): Promise<RunOutcome> {
  return execute(host, await prepareStoredRun(host, req), req);
}

/**
 * Records a prepared stored run as `queued` (nothing runs yet): whoever admits it drives it with
 * `resumeSkillRun`, which picks up its version and model as a resume does.
 */
export async function queueStoredRun(host: Host, prepared: Prepared, req: StoredRunRequest | StartRunRequest): Promise<string> {
  const model = modelFor(host, prepared.model, prepared.copyDir);
  return queueRun(prepared.plan, { store: host.store, clock: systemClock, ids: randomIds, model }, {
    input: req.input,
    skillText: prepared.files['skill.md'] ?? '',
    parentRunId: req.parentRunId ?? null,
    skillVersionId: prepared.versionId,
    runId: req.runId,
    bundleDir: prepared.origin,
  });
}

/**
 * Starts a stored version (prepared: everything that would refuse it checked) and answers once
 * the run is recorded (its id can be shown at once); `done` settles when it ends.
 */
export async function launchStoredRun(host: Host, prepared: Prepared, req: StoredRunRequest): Promise<{ runId: string; done: Promise<RunOutcome> }> {
  let created!: (id: string) => void;
  const recorded = new Promise<string>((resolve) => (created = resolve));
  const done = execute(host, prepared, req, created);
  // the caller awaits `done` or not; an end it does not await must not become an unhandled rejection
  done.catch(() => undefined);
  return { runId: await Promise.race([recorded, done.then((o) => o.runId)]), done };
}
