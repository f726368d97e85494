/**
 * The `format`s of ajv-formats whose JavaScript regular expression backtracks
 * on run-time data, matched in linear time instead (RE2, linear-regexp.ts).
 *
 * `url`: its `(?:\S+(?::\S*)?@)?` tries every split of the text before the
 * host, so a value of many `:` and no `@` costs time quadratic in its length —
 * 32 KB held the event loop 0.8 s, a 1 MB value (what file/read returns) a
 * quarter of an hour. RE2 has no lookahead, which the pattern uses to refuse
 * private IPv4 hosts; so the pattern without them is matched, and a second one
 * made of the lookaheads' bodies, at the host's place, refuses those hosts:
 * the same answers, both in linear time. The other formats of ajv-formats are
 * linear in V8 already (their patterns, or functions), or RE2 forms of them
 * would change nothing.
 *
 * Owns: `useLinearFormats`, called wherever ajv-formats is added. Does not:
 * add the formats (ajv-formats does) or compile schemas.
 */
import { compileLinear } from './linear-regexp';

type FormatHost = { formats: Record<string, unknown>; addFormat(name: string, format: (s: string) => boolean): unknown };

/** a lookahead `(?!…)` with groups nested one level inside it */
const LOOKAHEAD = /\(\?!((?:[^()\\]|\\.|\((?:[^()\\]|\\.)*\))*)\)/g;

/**
 * `url` as ajv-formats spells it (`source`, flags `iu`), as a linear-time test with the same answers.
 * Its host is `(?:(?!a)(?!b)(?!c)IPV4|HOSTNAME)`: the lookaheads refuse private IPv4 hosts only.
 */
export function linearUrlFormat(source: string): (s: string) => boolean {
  return compileUrlPatterns(urlPatterns(source));
}

/** the three RE2 patterns of the url format: any host but a private IPv4 one, an IPv4 host, and the private hosts */
type UrlPatterns = { asName: string; asIpv4: string; privateHost: string };

/** `source` taken apart into its RE2 patterns (cheap; throws when ajv-formats spells url otherwise than this expects) */
function urlPatterns(source: string): UrlPatterns {
  const at = source.indexOf('(?:(?!');
  if (at < 0) throw new Error('the url format has no lookaheads where expected: ajv-formats changed; look at linear-formats.ts again');
  const [alternatives, end] = topLevel(source, at + 3);
  const refused = [...alternatives[0].matchAll(LOOKAHEAD)].map((m) => m[1]);
  const ipv4 = alternatives[0].replace(LOOKAHEAD, '');
  const before = source.slice(0, at);
  const after = source.slice(end + 1);
  return {
    asIpv4: `(?i)${before}(?:${ipv4})${after}`,
    asName: `(?i)${before}(?:${alternatives.slice(1).join('|')})${after}`,
    privateHost: `(?i)${before}(?:${refused.join('|')})`,
  };
}

/** the patterns compiled (the ~50 ms of CPU) into the url test */
function compileUrlPatterns(p: UrlPatterns): (s: string) => boolean {
  const asIpv4 = compileLinear(p.asIpv4);
  const asName = compileLinear(p.asName);
  const privateHost = compileLinear(p.privateHost);
  return (s) => asName.test(s) || (asIpv4.test(s) && !privateHost.test(s));
}

/** The top-level alternatives of the group whose content starts at `from`, and the index of its `)`. */
function topLevel(source: string, from: number): [string[], number] {
  const parts: string[] = [];
  let depth = 0;
  let inClass = false;
  let start = from;
  for (let i = from; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')' && depth > 0) depth--;
    else if (c === ')' || (c === '|' && depth === 0)) {
      parts.push(source.slice(start, i));
      start = i + 1;
      if (c === ')') return [parts, i];
    }
  }
  throw new Error('the url format has an unclosed group: ajv-formats changed; look at linear-formats.ts again');
}

/**
 * Replaces the formats of `ajv` that backtrack (see the header) by linear-time ones. The url format's
 * three RE2 programs (case-folded: ~50 ms of CPU to compile) are compiled when a value is first checked
 * against it: every process that loads the kernel calls this, and most never check a url (a resume
 * paid it twice before its first step).
 */
export function useLinearFormats(ajv: FormatHost): void {
  const url = ajv.formats.url;
  if (!(url instanceof RegExp)) return;
  // taken apart now, so a changed ajv-formats fails where the validator is set up, not in a run's first url check
  const patterns = urlPatterns(url.source);
  let test: ((s: string) => boolean) | null = null;
  ajv.addFormat('url', (s) => (test ??= compileUrlPatterns(patterns))(s));
}
