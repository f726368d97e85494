/**
 * The model adapters, and the one place a model spec string becomes a port.
 *
 * Owns: the spec forms — `scripted:FILE`, `openai`, `openai:MODEL` — and
 * where their settings come from (the bundle folder, the environment).
 * Does not: build replay models (the kernel feeds those from a run's record:
 * see replay.ts), or read process.env itself: the caller passes the
 * environment, so tests and the app decide what the adapter sees.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import type { ModelPort } from '../kernel/ports';
import { UsageError } from '../kernel/errors';
import { shellWord } from '../kernel/shell-word';
import { createScriptedModel } from './scripted';
import { createOpenAiModel } from './openai';

export { createScriptedModel, type ScriptedModel, type ScriptedModelOptions } from './scripted';
export { parseModelScript, type ModelScript } from './model-script';
export { createOpenAiModel, toFunctionName, FINISH_TOOL, MODEL_TIMEOUT_MS, type OpenAiModelOptions } from './openai';
export { createReplayModel, positionKey, type RecordedTurn } from './replay';
export type { PositionedRequest } from './visits';

export type ModelEnv = Record<string, string | undefined>;

const SPEC_FORMS =
  '`scripted:FILE` (a model script, relative to the bundle folder or the working directory), ' +
  '`openai` (model from STAGECRAFT_MODEL) or `openai:MODEL`, both with STAGECRAFT_MODEL_BASE_URL';

/**
 * A spec that can name a model at all (its form, not whether the script exists or the endpoint is set):
 * else the usage error modelFromSpec would give — said before anything is looked up, whatever it is for.
 */
export function checkModelSpec(spec: string): void {
  const [kind, ...rest] = spec.split(':');
  const arg = rest.join(':');
  if ((kind === 'scripted' && arg !== '') || kind === 'openai') return;
  if (kind === 'replay') {
    throw new UsageError(`A replay model is built from a recorded run, not from a spec: replay the run instead (\`stagecraft replay ${arg ? shellWord(arg) : 'RUN'}\`).`, { spec });
  }
  throw new UsageError(`Unknown model ${JSON.stringify(spec)}. Use ${SPEC_FORMS}.`, { spec });
}

export function modelFromSpec(
  spec: string,
  opts: { bundleDir: string; env: ModelEnv; cwd?: string; fetch?: typeof fetch },
): ModelPort {
  const [kind, ...rest] = spec.split(':');
  const arg = rest.join(':');

  if (kind === 'scripted' && arg !== '') {
    const cwd = opts.cwd ?? process.cwd();
    const candidates = path.isAbsolute(arg) ? [arg] : [path.resolve(opts.bundleDir, arg), path.resolve(cwd, arg)];
    const found = candidates.find((c) => existsSync(c));
    if (!found) {
      throw new UsageError(`Model script ${arg} not found; looked at ${[...new Set(candidates)].join(' and ')}.`, { spec });
    }
    // a folder is no script: said as the caller's mistake, not as a read that failed with EISDIR once the run starts
    if (statSync(found).isDirectory()) {
      throw new UsageError(`Model script ${arg} is a folder${found === arg ? '' : ` (${found})`}, not a file: name the script in it, e.g. scripted:${path.join(arg, 'model.yaml')}.`, { spec });
    }
    return createScriptedModel(found, { file: arg });
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

function timeoutFrom(raw: string | undefined): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms <= 0) {
    throw new UsageError(`STAGECRAFT_MODEL_TIMEOUT_MS must be a whole number of milliseconds, not ${JSON.stringify(raw)}.`);
  }
  return ms;
}
