/**
 * The regular-expression engine of every JSON Schema an author writes: RE2
 * (re2js, pure JavaScript, so the browser's input check uses it too), which
 * matches in time linear in the input. ajv's default, the JavaScript engine,
 * backtracks: `pattern: "^(a+)+$"` against "aaa…a!" froze the whole server.
 *
 * Owns: `linearRegExp` (ajv's `code.regExp` engine) and the translation of
 * the JavaScript spellings RE2 writes differently (`\uXXXX`, `\u{…}`,
 * `(?<name>…)`). What RE2 cannot express — backreferences, lookahead and
 * lookbehind, a repeat count over 1000 — is a PatternUnsupportedError naming
 * the pattern and why; the validator locates it in skill.md
 * (lib/skill/check-schemas.ts). Imports nothing from Node.
 * Does not: decide where a schema is compiled (schema-check.ts, lib/skill).
 */
import { RE2JS } from 're2js';
import { PatternUnsupportedError } from './errors';

export type LinearRegExp = { test(s: string): boolean; toString(): string };

/** Why a JavaScript pattern has no RE2 form, found before RE2 parses it (its own messages are terser), or null. */
function unsupported(p: string): string | null {
  let inClass = false;
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === '\\') {
      const n = p[i + 1] ?? '';
      if (!inClass && (/[1-9]/.test(n) || (n === 'k' && p[i + 2] === '<'))) return `a backreference (\\${n === 'k' ? 'k<…>' : n}) needs to remember what a group matched, which RE2 never does`;
      i++;
    } else if (inClass) {
      if (c === ']') inClass = false;
    } else if (c === '[') {
      inClass = true;
      if (p[i + 1] === ']') i++;
    } else if (c === '(' && p[i + 1] === '?') {
      const k = p.slice(i + 2, i + 4);
      if (k[0] === '=' || k[0] === '!') return `lookahead (${p.slice(i, i + 3)}…) is not supported by RE2`;
      if (k === '<=' || k === '<!') return `lookbehind (${p.slice(i, i + 4)}…) is not supported by RE2`;
    }
  }
  return null;
}

/** The JavaScript spellings RE2 has its own for: `\u00e9` → `\x{00e9}`, `\u{1F600}` → `\x{1F600}`, `(?<n>` → `(?P<n>`. */
function toRe2Syntax(p: string): string {
  let out = '';
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === '\\' && p[i + 1] === 'u') {
      const braced = /^\{([0-9a-fA-F]{1,6})\}/.exec(p.slice(i + 2));
      const four = /^[0-9a-fA-F]{4}/.exec(p.slice(i + 2));
      if (braced) {
        out += `\\x{${braced[1]}}`;
        i += 1 + braced[0].length;
        continue;
      }
      if (four) {
        out += `\\x{${four[0]}}`;
        i += 5;
        continue;
      }
    }
    if (c === '\\') {
      out += c + (p[i + 1] ?? '');
      i++;
      continue;
    }
    if (c === '(' && p.startsWith('(?<', i) && p[i + 3] !== '=' && p[i + 3] !== '!') {
      out += '(?P<';
      i += 2;
      continue;
    }
    out += c;
  }
  return out;
}

function explain(message: string): string {
  const m = /error parsing regexp: (.*)$/.exec(message);
  const why = m ? m[1] : message;
  if (/invalid repeat count/.test(why)) return `${why} (RE2 repeats a piece at most 1000 times)`;
  return `RE2 cannot parse it: ${why}`;
}

const compiled = new Map<string, LinearRegExp>();
const MAX_COMPILED = 1000;

/** Compiles a JSON Schema pattern for linear-time matching; PatternUnsupportedError when RE2 cannot express it. */
export function compileLinear(pattern: string): LinearRegExp {
  let rx = compiled.get(pattern);
  if (rx) return rx;
  const why = unsupported(pattern);
  if (why) throw new PatternUnsupportedError(pattern, why);
  let re: RE2JS;
  try {
    re = RE2JS.compile(toRe2Syntax(pattern));
  } catch (e) {
    throw new PatternUnsupportedError(pattern, explain(e instanceof Error ? e.message : String(e)));
  }
  // ajv keys compiled patterns by toString: each pattern must name itself
  rx = { test: (s: string) => re.test(s), toString: () => `/${pattern}/re2` };
  if (compiled.size >= MAX_COMPILED) compiled.clear();
  compiled.set(pattern, rx);
  return rx;
}

/** ajv's `code.regExp` engine (the `u` flag is RE2's own behaviour: it matches code points). */
export const linearRegExp = Object.assign((pattern: string, _flags: string) => compileLinear(pattern), { code: 'linearRegExp' });
