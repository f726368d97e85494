/** Argument parsing shared by the commands: node's parseArgs with usage errors instead of throws. */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from '../lib/kernel/errors';
import { didYouMean } from '../lib/skill/suggest';

export function parse<T extends NonNullable<ParseArgsConfig['options']>>(argv: string[], options: T, positionals: { min: number; max: number; names: string }) {
  let r;
  try {
    r = parseArgs({ args: argv, options, allowPositionals: true, strict: true, tokens: true });
  } catch (e) {
    throw new UsageError(usageWords(e as Error & { code?: string }, options, argv));
  }
  const twice = givenTwice(r.tokens, options);
  if (twice) throw new UsageError(twice);
  if (r.positionals.length < positionals.min || r.positionals.length > positionals.max) {
    throw new UsageError(`expected ${positionals.names}, got ${r.positionals.length ? r.positionals.join(' ') : 'nothing'}`);
  }
  return r;
}

/**
 * A flag that takes one value, given two different ones (`--input a.json --input b.json`): parseArgs
 * keeps the last without a word, so a command ran on an input, a version or a model its caller did
 * not mean. The same value twice, or a flag that takes none, is harmless and passes.
 */
function givenTwice(tokens: ReturnType<typeof parseArgs>['tokens'], options: NonNullable<ParseArgsConfig['options']>): string | undefined {
  const seen = new Map<string, string>();
  for (const t of tokens ?? []) {
    if (t.kind !== 'option' || t.value === undefined || options[t.name]?.multiple) continue;
    const first = seen.get(t.name);
    if (first === undefined) seen.set(t.name, t.value);
    else if (first !== t.value) return `--${t.name} was given twice (${JSON.stringify(first)}, then ${JSON.stringify(t.value)}): give it once.`;
  }
  return undefined;
}

/**
 * parseArgs' refusal in the command's words: an unknown option names the ones the command takes
 * (node's own words go on about positionals after `--`, which is not what a mistyped flag needs).
 */
function usageWords(e: Error & { code?: string }, options: NonNullable<ParseArgsConfig['options']>, argv: string[]): string {
  if (e.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') return valueWords(e.message);
  if (e.code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return e.message;
  let given = /'([^']+)'/.exec(e.message)?.[1] ?? 'that option';
  const names = Object.keys(options);
  const known = names.map((name) => `--${name}`);
  // `-json` is read as the letters -j -s -o -n: the word as typed, and its two dashes, say what went wrong
  const oneDash = argv.find((a) => /^-[^-]/.test(a) && a.slice(0, 2) === given && names.includes(a.slice(1).split('=')[0]));
  if (oneDash) given = oneDash;
  const said = `Unknown option ${given}: this command takes ${known.length ? known.join(', ') : 'no options'}.`;
  if (oneDash) return `${said} Write --${oneDash.slice(1)}, with two dashes.`;
  const near = given.startsWith('--') ? didYouMean(given.slice(2).split('=')[0], names) : undefined;
  return near === undefined ? said : `${said} Did you mean --${near}?`;
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
