/** Argument parsing shared by the commands: node's parseArgs with usage errors instead of throws. */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from '../lib/kernel/errors';

export function parse<T extends NonNullable<ParseArgsConfig['options']>>(argv: string[], options: T, positionals: { min: number; max: number; names: string }) {
  let r;
  try {
    r = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  if (r.positionals.length < positionals.min || r.positionals.length > positionals.max) {
    throw new UsageError(`expected ${positionals.names}, got ${r.positionals.length ? r.positionals.join(' ') : 'nothing'}`);
  }
  return r;
}

/** a stdin or file over MAX_INPUT_BYTES (its message is the usage error's) */
export class InputTooLarge extends Error {}
