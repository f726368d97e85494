/**
 * A file the command line named that could not be read or written, in plain words: what happened, where,
 * and what to do — never node's own text ("ENOENT: no such file or directory, open '…'"). A usage error
 * (exit 2): the path is the caller's input.
 */
import { readFileSync, statSync } from 'node:fs';
import { UsageError } from '../lib/kernel/errors';
import { shellWord } from '../lib/kernel/shell-word';
import { MAX_INPUT_BYTES } from '../lib/server/limits';
import { jsonErrorPosition } from '../lib/skill/text-position';
import { locatePointer } from '../lib/skill/pointer-position';
import { InputTooLarge } from './args';
import type { Io } from './main';

/**
 * The text of a JSON argument file (`--input FILE`, `--value FILE`; `-` is standard input): at most
 * MAX_INPUT_BYTES (`tooLarge` says what to do instead), said plainly when it cannot be read, and
 * refused when it holds nothing (`whenEmpty`: what to give) — not JSON.parse's "Unexpected end of
 * JSON input".
 */
export async function readArgText(flag: string, spec: string, io: Io, words: { tooLarge: string; whenEmpty: string }): Promise<string> {
  const shown = `${flag} ${spec === '-' ? '- (standard input)' : spec}`;
  const tooLarge = () => new UsageError(`${shown} is over ${MAX_INPUT_BYTES / (1024 * 1024)} MB${words.tooLarge ? `: ${words.tooLarge}` : '.'}`);
  if (spec !== '-') {
    let size: number;
    try {
      size = statSync(spec).size;
    } catch (e) {
      throw jsonGivenAsPath(flag, spec, unreadable(shown, e));
    }
    if (size > MAX_INPUT_BYTES) throw tooLarge();
  }
  let text: string;
  try {
    text = spec === '-' ? await io.stdin(MAX_INPUT_BYTES) : readFileSync(spec, 'utf8');
  } catch (e) {
    if (e instanceof InputTooLarge) throw tooLarge();
    throw unreadable(shown, e);
  }
  if (text.trim() === '') throw new UsageError(`${shown} ${text === '' ? 'is empty' : 'holds only whitespace'}: ${words.whenEmpty}`);
  return text;
}

/**
 * The JSON itself given where a file is named (`--input '{"path":"x"}'`): the error that no such file
 * exists, followed by what the flag takes and the pasteable command that gives that JSON on stdin.
 */
function jsonGivenAsPath(flag: string, spec: string, e: UsageError): UsageError {
  if (!/^\s*[{[]/.test(spec)) return e;
  e.message += ` ${flag} takes a file path or - (standard input), not the JSON itself: ${flag} - <<< ${shellWord(spec)}`;
  return e;
}

/**
 * Where a JSON argument's text stops being JSON, to append to its error: ` (at FILE:line:col)` (stdin
 * for `-`), as an editor takes it — JSON.parse names only a character offset ("at position 11").
 */
export function jsonArgWhere(spec: string, text: string): string {
  const at = jsonErrorPosition(text);
  return at ? ` (at ${spec === '-' ? 'stdin' : spec}:${at.line}:${at.column})` : '';
}

/**
 * A JSON argument's schema errors, each at FILE:line:col of its text (stdin for `-`), as an editor takes
 * them — the first five: `input.json:2:12: /topic must be string`. `whole`: what the empty pointer is called.
 */
export function jsonArgErrorLines(spec: string, text: string, errors: { pointer: string; message: string }[], whole: string): string[] {
  const where = spec === '-' ? 'stdin' : spec;
  return errors.slice(0, 5).map((x) => {
    const at = locatePointer(text, x.pointer);
    return `${where}:${at.line}:${at.column}: ${x.pointer || whole} ${x.message}`;
  });
}

/** `what`: how the path was given (`--input examples/x.json`, `the export file runs/a.json`) */
export function unreadable(what: string, e: unknown): UsageError {
  const code = (e as NodeJS.ErrnoException | null)?.code;
  if (code === 'ENOENT') return new UsageError(`${what} does not exist: check the path.`);
  if (code === 'EISDIR') return new UsageError(`${what} is a folder, not a file: name a file in it.`);
  if (code === 'ENOTDIR') return new UsageError(`${what} does not exist: a part of its path is a file, not a folder.`);
  if (code === 'EACCES' || code === 'EPERM') return new UsageError(`${what} cannot be read: permission denied. Check its permissions.`);
  return new UsageError(`${what} cannot be read: ${plain(e)}.`);
}

/** `what`: how the path was given (`--out runs/a.json`) */
export function unwritable(what: string, e: unknown): UsageError {
  const code = (e as NodeJS.ErrnoException | null)?.code;
  if (code === 'ENOENT') return new UsageError(`${what} cannot be written: its folder does not exist. Create it first, or write elsewhere.`);
  if (code === 'ENOTDIR') return new UsageError(`${what} cannot be written: a part of its path is a file, not a folder. Write elsewhere.`);
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return new UsageError(`${what} cannot be written: permission denied there. Write elsewhere.`);
  if (code === 'ENOSPC') return new UsageError(`${what} cannot be written: the disk is full.`);
  return new UsageError(`${what} cannot be written: ${plain(e)}.`);
}

/** node's message without its `CODE: ` prefix and the `, open '…'` call it names */
function plain(e: unknown): string {
  const m = e instanceof Error ? e.message : String(e);
  return m.replace(/^E[A-Z]+: /, '').replace(/, \w+ '[^']*'(?: -> '[^']*')?$/, '');
}
