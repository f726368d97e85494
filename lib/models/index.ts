/**
 * The model adapters, and the one place a model spec string becomes a port.
 *
 * Owns: the spec forms — `scripted:FILE`, `openai`, `openai:MODEL` — and
 * where their settings come from (the bundle folder, the environment).
 * Does not: build replay models (the kernel feeds those from a run's record:
 * see replay.ts), or read process.env itself: the caller passes the
 * environment, so tests and the app decide what the adapter sees.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import type { ModelPort } from '../kernel/ports';
import { UsageError } from '../kernel/errors';
import { shellWord } from '../kernel/shell-word';
import { createScriptedModel } from './scripted';
import { createOpenAiModel } from './openai';
import { timeoutFrom } from './timeout';

export { createScriptedModel, type ScriptedModel, type ScriptedModelOptions } from './scripted';
export { parseModelScript, type ModelScript } from './model-script';
export { createOpenAiModel, toFunctionName, FINISH_TOOL, MODEL_TIMEOUT_MS, type OpenAiModelOptions } from './openai';
export { createReplayModel, positionKey, type RecordedTurn } from './replay';
export type { PositionedRequest } from './visits';

export type ModelEnv = Record<string, string | undefined>;

const OPENAI_FORMS = '`openai` (model from STAGECRAFT_MODEL) or `openai:MODEL`, both with STAGECRAFT_MODEL_BASE_URL';
const SPEC_FORMS = `\`scripted:FILE\` (a model script file: the bundle folder's, else the working directory's), ${OPENAI_FORMS}`;
/** a stored skill's run (the app's, or the CLI's of a skill by name) takes only the skill's own scripts: no working directory is looked in */
const STORED_SPEC_FORMS = `\`scripted:FILE\` (a model script file of the skill, e.g. scripted:model.yaml), ${OPENAI_FORMS}`;

/** what a spec is for: a run of a bundle folder, or of a stored skill (its version's files only) */
export type ModelSpecOf = 'folder' | 'stored';

/**
 * A spec that can name a model at all (its form, not whether the script exists or the endpoint is set):
 * else the usage error modelFromSpec would give — said before anything is looked up, whatever it is for.
 */
export function checkModelSpec(spec: string, of: ModelSpecOf = 'folder'): void {
  const [kind, ...rest] = spec.split(':');
  const arg = rest.join(':');
  if ((kind === 'scripted' && arg !== '') || kind === 'openai') return;
  if (kind === 'replay') {
    throw new UsageError(`A replay model is built from a recorded run, not from a spec: replay the run instead (\`stagecraft replay ${arg ? shellWord(arg) : 'RUN'}\`).`, { spec });
  }
  throw new UsageError(`Unknown model ${JSON.stringify(spec)}. Use ${of === 'stored' ? STORED_SPEC_FORMS : SPEC_FORMS}.`, { spec });
}

/**
 * Where `scripted:NAME` is: an absolute NAME as it is; a relative one in the bundle folder first, then
 * the working directory, and a file is taken over a folder of that name wherever each is (a folder
 * `model/` in the bundle does not hide a script `./model` here). `file`: the script taken, if any;
 * `folder`: the first folder of that name, when no file has it; `other`: a second file of that name
 * that was not taken (the working directory's, when the bundle has one too), for a caller to say so.
 */
export function locateModelScript(name: string, bundleDir: string, cwd: string): { file: string | null; folder: string | null; other: string | null; candidates: string[] } {
  const candidates = path.isAbsolute(name) ? [name] : [...new Set([path.resolve(bundleDir, name), path.resolve(cwd, name)])];
  const kinds = candidates.map((c) => {
    try {
      return statSync(c).isDirectory() ? 'folder' : 'file';
    } catch {
      return null;
    }
  });
  const files = candidates.filter((_, i) => kinds[i] === 'file');
  return { file: files[0] ?? null, folder: candidates.find((_, i) => kinds[i] === 'folder') ?? null, other: files[1] ?? null, candidates };
}

/** `file`'s path relative to the bundle folder, when it is in it; else null */
function inBundle(file: string, bundleDir: string): string | null {
  const rel = path.relative(path.resolve(bundleDir), file);
  return rel && rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : null;
}

export function modelFromSpec(
  spec: string,
  opts: { bundleDir: string; env: ModelEnv; cwd?: string; fetch?: typeof fetch; shown?: string },
): ModelPort {
  const [kind, ...rest] = spec.split(':');
  const arg = rest.join(':');

  if (kind === 'scripted' && arg !== '') {
    const at = locateModelScript(arg, opts.bundleDir, opts.cwd ?? process.cwd());
    // a script of the bundle is named in messages by its path in the bundle (`model.yaml:1:1`), as other errors of a
    // bundle are: never by its copy under the data dir, a path of the server's own that is no caller's business.
    // The model's name keeps the spec as given (a run records it, and a resume finds the script again by it).
    if (at.file) return createScriptedModel(at.file, { file: inBundle(at.file, opts.bundleDir) ?? arg, name: `scripted:${arg}` });
    // a folder is no script: said as the caller's mistake, not as a read that failed with EISDIR once the run starts
    if (at.folder) {
      throw new UsageError(
        `Model script ${arg} is a folder${at.folder === arg ? '' : ` (${at.folder})`}, not a file: name the script in it, e.g. scripted:${path.join(arg, 'model.yaml')}` +
          (at.candidates.length > 1 ? ` (no file of that name at ${at.candidates.join(' or ')}).` : '.'),
        { spec },
      );
    }
    // the bundle's place as its author knows it (`shown`: the folder `run` was given), not its copy in the data dir
    const bundleCandidate = path.resolve(opts.bundleDir, arg);
    const looked = at.candidates.map((c) => (opts.shown && c === bundleCandidate ? `${arg} in the bundle ${opts.shown}` : c));
    throw new UsageError(
      `Model script ${arg} not found; looked at ${looked.join(' and ')}. Name a file that is there: a path from the bundle folder or the working directory, or an absolute one.`,
      { spec },
    );
  }

  if (kind === 'openai') {
    const baseUrl = opts.env.STAGECRAFT_MODEL_BASE_URL;
    if (!baseUrl) {
      throw new UsageError(
        `The model ${spec} needs STAGECRAFT_MODEL_BASE_URL, the OpenAI-compatible endpoint, e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1 (Ollama).`,
        { spec },
      );
    }
    const model = arg || opts.env.STAGECRAFT_MODEL;
    if (!model) {
      throw new UsageError('No model name: use `openai:MODEL` (e.g. openai:gpt-4o-mini) or set STAGECRAFT_MODEL.', { spec });
    }
    return createOpenAiModel({
      baseUrl,
      model,
      apiKey: opts.env.STAGECRAFT_MODEL_API_KEY || undefined,
      timeoutMs: timeoutFrom(opts.env.STAGECRAFT_MODEL_TIMEOUT_MS),
      fetch: opts.fetch,
    });
  }

  // any other spec is one no model has: checkModelSpec says which
  checkModelSpec(spec);
  throw new UsageError(`Unknown model ${JSON.stringify(spec)}. Use ${SPEC_FORMS}.`, { spec });
}
