/**
 * The builtin capability handlers (`uses: builtin:<name>`). Each is a pure
 * function of its stage context: it reads and returns a contribution, and
 * never touches the run.
 *
 * - tool_result_budget (post-tool): tool results longer than `max_chars` are
 *   cut in the transcript the next round sees; the full text is kept as a
 *   workspace artifact at `tool-results/<call id>.txt`.
 * - unverified_numbers (post-model): numbers in the finish artifact that
 *   appear in no tool outcome of the run are flagged (possible fabrication).
 * - pii_redact (finalize): e-mail addresses, phone numbers and card-like
 *   numbers in the finish artifact are replaced.
 *
 * Does not: decide whether a contribution is allowed (the dispatcher does).
 */
import type { Json, JsonObject } from '../json';
import { isJsonObject } from '../json';
import type { Contribution, StageContext, StageHandler } from '../stage-types';

export const DEFAULT_MAX_CHARS = 4000;

const toolResultBudget: StageHandler = (ctx) => {
  const max = typeof ctx.with.max_chars === 'number' ? ctx.with.max_chars : DEFAULT_MAX_CHARS;
  const outcomes: NonNullable<Contribution['outcomes']> = {};
  const workspace: Record<string, Json> = {};
  (ctx.outcomes ?? []).forEach((o, i) => {
    if (o.content.length <= max) return;
    const path = `tool-results/${o.callId}.txt`;
    workspace[path] = o.content;
    outcomes[String(i)] = {
      content: `${o.content.slice(0, max)}\n…[cut to ${max} of ${o.content.length} characters; the full result is in the workspace at ${path}]`,
    };
  });
  return Object.keys(outcomes).length ? { outcomes, workspace } : {};
};

const NUMBER_RE = /-?\d+(?:[.,]\d+)*(?:\.\d+)?/g;

function normalizeNumber(s: string): string | null {
  const n = Number(s.replace(/,/g, ''));
  return Number.isFinite(n) ? String(n) : null;
}

function numbersIn(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.match(NUMBER_RE) ?? []) {
    const n = normalizeNumber(m);
    if (n !== null) out.add(n);
  }
  return out;
}

function collectNumbers(v: Json, path: string, out: { path: string; value: string }[]): void {
  if (typeof v === 'number') out.push({ path, value: String(v) });
  else if (typeof v === 'string') for (const n of numbersIn(v)) out.push({ path, value: n });
  else if (Array.isArray(v)) v.forEach((x, i) => collectNumbers(x, `${path}[${i}]`, out));
  else if (isJsonObject(v)) for (const [k, x] of Object.entries(v)) collectNumbers(x, path ? `${path}.${k}` : k, out);
}

const unverifiedNumbers: StageHandler = (ctx) => {
  const finish = ctx.turn?.finish;
  if (!finish) return {};
  const severity = (ctx.with.severity as 'info' | 'warning' | 'error' | undefined) ?? 'warning';
  const ignore = new Set((Array.isArray(ctx.with.ignore) ? ctx.with.ignore : []).map((n) => String(n)));
  const evidence = new Set<string>();
  for (const text of ctx.evidence ?? []) for (const n of numbersIn(text)) evidence.add(n);
  const found: { path: string; value: string }[] = [];
  collectNumbers(finish, '', found);
  const annotations = found
    .filter((f) => !evidence.has(f.value) && !ignore.has(f.value))
    .map((f) => ({
      kind: 'unverified_number',
      message: `${f.value} at ${f.path || '(root)'} appears in no tool outcome of this run`,
      severity,
    }));
  return annotations.length ? { annotations } : {};
};

const PII: Record<string, RegExp> = {
  card: /\b(?:\d[ -]?){13,19}\b/g,
  phone: /(?:\+\d{1,3}[ .-]?)?(?:\(\d{2,4}\)[ .-]?)?\d{2,4}[ .-]\d{3,4}[ .-]?\d{3,4}\b/g,
};

export function redactText(text: string, kinds: readonly string[], replacement: string): string {
  let out = text;
  for (const k of ['email', 'card', 'phone']) if (kinds.includes(k)) out = k === 'email' ? replaceEmails(out, replacement) : out.replace(PII[k], replacement);
  return out;
}

/** an e-mail address, tried at one place only (sticky) */
const EMAIL_AT = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/y;
/** a character of an address's local part (every character of its domain is one too) */
const isLocal = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 46 || c === 95 || c === 37 || c === 43 || c === 45;

/**
 * `text.replace(/[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g, replacement)`, in time linear in the text.
 * The global regex tries a match at every character: in a run of address characters with no `@`
 * after it, each try reads to the run's end, so 200 KB of letters held the event loop 80 s (the
 * finish artifact is the model's, up to 16 MB). A match from inside a run exists only when one
 * from its first untried character does (the local part is the run up to an `@`, the domain the
 * same), so the pattern is tried once per run, and a run without a match is passed whole.
 */
function replaceEmails(text: string, replacement: string): string {
  let out = '';
  let kept = 0;
  for (let at = 0; at < text.length; ) {
    while (at < text.length && !isLocal(text.charCodeAt(at))) at++;
    if (at >= text.length) break;
    EMAIL_AT.lastIndex = at;
    const m = EMAIL_AT.exec(text);
    if (m) {
      out += text.slice(kept, at) + substitution(replacement, text, at, m[0]);
      at = kept = at + m[0].length;
    } else {
      while (at < text.length && isLocal(text.charCodeAt(at))) at++;
    }
  }
  return out + text.slice(kept);
}

/** `replacement` for the match `matched` at `at` of `text`, read as String.prototype.replace reads it (`$$`, `$&`, `` $` ``, `$'`; the pattern has no groups) */
function substitution(replacement: string, text: string, at: number, matched: string): string {
  if (!replacement.includes('$')) return replacement;
  return replacement.replace(/\$([$&`'])/g, (_, c: string) => (c === '$' ? '$' : c === '&' ? matched : c === '`' ? text.slice(0, at) : text.slice(at + matched.length)));
}

function redactValue(v: Json, kinds: readonly string[], replacement: string): Json {
  if (typeof v === 'string') return redactText(v, kinds, replacement);
  if (Array.isArray(v)) return v.map((x) => redactValue(x, kinds, replacement));
  // built with fromEntries, never `o[k] = …`: an own `__proto__` key (JSON.parse makes one) assigned so
  // sets the object's prototype instead, and what was under it left the artifact unredacted or lost
  if (isJsonObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, redactValue(x, kinds, replacement)])) as JsonObject;
  return v;
}

const piiRedact: StageHandler = (ctx: StageContext) => {
  if (!ctx.artifact) return {};
  const kinds = Array.isArray(ctx.with.kinds) ? (ctx.with.kinds as string[]) : ['email', 'phone', 'card'];
  const replacement = typeof ctx.with.replacement === 'string' ? ctx.with.replacement : '[redacted]';
  const changed: [string, Json][] = [];
  for (const [k, v] of Object.entries(ctx.artifact)) {
    const r = redactValue(v, kinds, replacement);
    if (JSON.stringify(r) !== JSON.stringify(v)) changed.push([k, r]);
  }
  return changed.length ? { artifact: Object.fromEntries(changed) as JsonObject } : {};
};

export const BUILTIN_HANDLERS: Record<string, StageHandler> = {
  tool_result_budget: toolResultBudget,
  unverified_numbers: unverifiedNumbers,
  pii_redact: piiRedact,
};
