/**
 * A value as a diff cell draws it: JSON, two-space indented — but a string of several lines (an
 * error's message with its traceback, a stack) is written out on its lines, not as one JSON string
 * full of `\n` escapes: alone, the text itself; inside an object or array, `|` and then its lines,
 * indented under its key (as YAML writes a block). A value with no such string reads exactly as
 * `JSON.stringify(value, null, 2)`.
 */
export function valueText(value: unknown): string {
  if (typeof value === 'string' && value.includes('\n')) return value;
  return nested(value, '');
}

function nested(v: unknown, indent: string): string {
  const inner = `${indent}  `;
  if (typeof v === 'string') return v.includes('\n') ? `|\n${v.replace(/\n$/, '').split('\n').map((line) => (line ? inner + line : line)).join('\n')}` : JSON.stringify(v);
  if (Array.isArray(v)) return v.length ? `[\n${v.map((x) => inner + nested(x, inner)).join(',\n')}\n${indent}]` : '[]';
  if (v !== null && typeof v === 'object') {
    const entries = Object.entries(v).filter(([, x]) => x !== undefined);
    return entries.length ? `{\n${entries.map(([k, x]) => `${inner}${JSON.stringify(k)}: ${nested(x, inner)}`).join(',\n')}\n${indent}}` : '{}';
  }
  return JSON.stringify(v) ?? 'null';
}
