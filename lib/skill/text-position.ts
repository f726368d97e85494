// Where in a text a character offset is, and where a JSON text stops being JSON: the one place both
// the HTTP layer and the browser's input editor turn a JSON syntax error into the 1-based line and
// column they show. V8's own messages name a position only for some errors, so the text is scanned
// (iteratively: any nesting depth). Browser-safe (no node:*).

/** 1-based line and column of a character offset */
export function lineColumnAt(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: Math.max(0, offset) - start + 1 };
}

const isWs = (c: string) => c === ' ' || c === '\t' || c === '\n' || c === '\r';
const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);

/** The offset of the first character that makes `text` not JSON (text.length for an early end), or null when it is JSON. */
export function jsonSyntaxErrorOffset(text: string): number | null {
  const n = text.length;
  const stack: string[] = [];
  let i = 0;
  // what comes next: a value, a key (first: '}' allowed), a value (first: ']' allowed), or what follows a value
  let want: 'value' | 'key' | 'firstKey' | 'firstValue' | 'after' = 'value';
  /** scans the string at i (a '"'); returns an error offset, or -1 */
  const string = (): number => {
    for (i++; i < n; i++) {
      const c = text[i];
      if (c === '"') return (i++, -1);
      if (c < ' ') return i;
      if (c === '\\') {
        const e = text[++i];
        if (e === 'u') {
          // at the first character that is not a hex digit (`"\u12"`: the closing quote)
          for (let k = 0; k < 4; k++) if (!/[0-9a-fA-F]/.test(text[++i] ?? '')) return Math.min(i, n);
        } else if (e === undefined || !ESCAPES.has(e)) return Math.min(i, n);
      }
    }
    return n;
  };
  /** scans the number at i; returns an error offset (where it stops being a number: `1.]` at the `]`), or -1 */
  const number = (): number => {
    const digits = () => {
      const from = i;
      while (i < n && text[i] >= '0' && text[i] <= '9') i++;
      return i > from;
    };
    if (text[i] === '-') i++;
    if (text[i] === '0') i++;
    else if (!digits()) return i;
    if (text[i] === '.') {
      i++;
      if (!digits()) return i;
    }
    if (text[i] === 'e' || text[i] === 'E') {
      i++;
      if (text[i] === '+' || text[i] === '-') i++;
      if (!digits()) return i;
    }
    return -1;
  };
  for (;;) {
    while (i < n && isWs(text[i])) i++;
    if (want === 'after') {
      const top = stack[stack.length - 1];
      if (top === undefined) return i < n ? i : null;
      if (i >= n) return n;
      const c = text[i];
      if (c === ',') {
        i++;
        want = top === '{' ? 'key' : 'value';
      } else if (c === (top === '{' ? '}' : ']')) {
        i++;
        stack.pop();
      } else return i;
      continue;
    }
    if (i >= n) return n;
    const c = text[i];
    if (want === 'key' || want === 'firstKey') {
      if (want === 'firstKey' && c === '}') {
        i++;
        stack.pop();
        want = 'after';
        continue;
      }
      if (c !== '"') return i;
      const bad = string();
      if (bad >= 0) return bad;
      while (i < n && isWs(text[i])) i++;
      if (text[i] !== ':') return i;
      i++;
      want = 'value';
      continue;
    }
    if (want === 'firstValue' && c === ']') {
      i++;
      stack.pop();
      want = 'after';
      continue;
    }
    if (c === '{' || c === '[') {
      stack.push(c);
      i++;
      want = c === '{' ? 'firstKey' : 'firstValue';
      continue;
    }
    want = 'after';
    if (c === '"') {
      const bad = string();
      if (bad >= 0) return bad;
      continue;
    }
    const word = c === 't' ? 'true' : c === 'f' ? 'false' : c === 'n' ? 'null' : null;
    if (word) {
      // at the first character that stops matching (`nulx`: the x)
      for (let k = 0; k < word.length; k++, i++) if (text[i] !== word[k]) return Math.min(i, n);
      continue;
    }
    const bad = number();
    if (bad >= 0) return bad;
  }
}

/** Where a JSON text stops being JSON, as a line and column; null when it is JSON. */
export function jsonErrorPosition(text: string): { line: number; column: number } | null {
  const at = jsonSyntaxErrorOffset(text);
  return at === null ? null : lineColumnAt(text, at);
}
