/**
 * What an over-indented line means, in the author's terms. The YAML parser
 * reports a line indented deeper than the key above it as "Nested mappings are
 * not allowed in compact mappings", at the value of that key: true, but a new
 * author does not know that the line to fix is the next one, nor how far to
 * move it. This names that line, the key it went under, and both ways out.
 *
 * Owns: that sentence. Does not: locate the finding (validate.ts keeps the
 * parser's position) or handle any other YAML error.
 */
import type { Span } from './source';

const KEY_LINE = /^(\s*(?:-\s+)?)([^\s#'"{[][^:#]*?):[ \t]+\S/;

/**
 * `text`: the frontmatter; `at`: the error's offset in it (on the value of the key whose line
 * is followed by the deeper one); `spanOf`: offsets to whole-file positions. '' when the lines
 * around `at` are not that shape.
 */
export function overIndentHint(text: string, at: number, spanOf: (start: number, end: number) => Span): string {
  const start = text.lastIndexOf('\n', at - 1) + 1;
  const nl = text.indexOf('\n', at);
  const key = KEY_LINE.exec(text.slice(start, nl < 0 ? text.length : nl));
  if (!key || nl < 0) return '';
  const keyAt = start + key[1].length;
  const keyColumn = spanOf(keyAt, keyAt + 1).column;
  // the next line with something on it
  let next = nl + 1;
  for (;;) {
    const end = text.indexOf('\n', next);
    const line = text.slice(next, end < 0 ? text.length : end);
    if (line.trim() !== '' && !line.trim().startsWith('#')) break;
    if (end < 0) return '';
    next = end + 1;
  }
  const end = text.indexOf('\n', next);
  const line = text.slice(next, end < 0 ? text.length : end);
  const indent = line.length - line.trimStart().length;
  const nextAt = spanOf(next + indent, next + indent + 1);
  if (nextAt.column <= keyColumn) return '';
  const name = key[2].trim();
  const shown = line.trim().length > 40 ? `${line.trim().slice(0, 39)}…` : line.trim();
  return (
    ` Line ${nextAt.line} (\`${shown}\`) is indented deeper than \`${name}:\` on line ${spanOf(keyAt, keyAt + 1).line}, which already has a value:` +
    ` start it at column ${keyColumn}, as \`${name}:\` is, to make it a key beside it, or leave \`${name}:\` with nothing after it to nest it.`
  );
}
