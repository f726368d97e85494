/** Argument parsing shared by the commands: node's parseArgs with usage errors instead of throws. */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from '../lib/kernel/errors';

export function parse<T extends NonNullable<ParseArgsConfig['options']>>(argv: string[], options: T, positionals: { min: number; max: number; names: string }) {
  let r;
  try {
    r = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError(usageWords(e as Error & { code?: string }, options));
  }
  if (r.positionals.length < positionals.min || r.positionals.length > positionals.max) {
    throw new UsageError(`expected ${positionals.names}, got ${r.positionals.length ? r.positionals.join(' ') : 'nothing'}`);
  }
  return r;
}

/**
 * parseArgs' refusal in the command's words: an unknown option names the ones the command takes
 * (node's own words go on about positionals after `--`, which is not what a mistyped flag needs).
 */
function usageWords(e: Error & { code?: string }, options: NonNullable<ParseArgsConfig['options']>): string {
  if (e.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') return valueWords(e.message);
  if (e.code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return e.message;
  const given = /'([^']+)'/.exec(e.message)?.[1] ?? 'that option';
  const known = Object.keys(options).map((name) => `--${name}`);
  return `Unknown option ${given}: this command takes ${known.length ? known.join(', ') : 'no options'}.`;
}

/**
 * A flag's value missing, or given to a flag that takes none, in plain words — node's name the flag as
 * `'-v, --version <value>'` and its ambiguity note speaks of "the option argument".
 */
function valueWords(message: string): string {
  const flag = /--[\w-]+/.exec(message)?.[0];
  if (!flag) return message;
  if (/argument missing/.test(message)) return `${flag} needs a value after it (${flag} VALUE).`;
  if (/ambiguous/.test(message)) return `${flag} needs a value, and the next word is an option: give ${flag} its value (one that starts with a dash as ${flag}=-…).`;
  if (/does not take an argument/.test(message)) return `${flag} takes no value: write ${flag} alone.`;
  return message;
}

/** a stdin or file over MAX_INPUT_BYTES (its message is the usage error's) */
export class InputTooLarge extends Error {}
