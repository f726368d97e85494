/**
 * What one event changed, as the scrubber shows it: the state after event k-1
 * and after event k (both answered by the server's fold, `GET …/state`)
 * compared with jsondiffpatch and listed as JSON-patch operations, each with
 * the value it had before and has now. The fields that change with every
 * event whatever it did (its seq, time, type, item and words, the event
 * count) are left out, so the list says what the event did, not that it
 * happened.
 *
 * Owns: comparing two state views. Does not: fold events (the kernel does).
 */
import { create } from 'jsondiffpatch';
import { format, type Op } from 'jsondiffpatch/formatters/jsonpatch';
import type { RunStateView } from '@/lib/views/inspector';

export type StateChange = { op: 'add' | 'remove' | 'replace' | 'move'; path: string; before?: unknown; after?: unknown };

// messages are named by id, workspace entries and files by path: an inserted message is one add, not a cascade of replaces
const differ = create({
  objectHash: (item: object, index?: number) => {
    const o = item as { id?: unknown; path?: unknown };
    if (typeof o.id === 'string') return o.id;
    if (typeof o.path === 'string') return o.path;
    return `#${index ?? ''}`;
  },
  arrays: { detectMove: false },
});

/** the part of a state an event can change (see the header for what is left out) */
export function comparable(s: RunStateView): Record<string, unknown> {
  const { runId: _r, seq: _s, lastSeq: _l, at: _a, type: _t, item: _i, change: _c, counts, ...rest } = s;
  const { events: _e, ...stepCounts } = counts;
  // where the chain's value came from (a fork's edit) is said beside it, not a change of the state
  const chain = rest.chain ? (({ editedAt: _edited, editedOver: _over, ...own }) => own)(rest.chain) : rest.chain;
  const transcript = rest.transcript.map(({ editedAt: _edited, editedOver: _over, ...own }) => own);
  return { ...rest, transcript, chain, counts: stepCounts };
}

/** the value at a JSON pointer (`/transcript/3/content`), or undefined */
export function atPointer(value: unknown, pointer: string): unknown {
  if (pointer === '' || pointer === '/') return value;
  let at: unknown = value;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

/** the changes from `before` (the state after event k-1) to `after` (after event k), in path order */
export function stateChanges(before: RunStateView, after: RunStateView): StateChange[] {
  const left = comparable(before);
  const right = comparable(after);
  const delta = differ.diff(left, right);
  if (!delta) return [];
  return format(delta).map((op: Op): StateChange => {
    // jsondiffpatch's patch paths name array positions after earlier ops of the list; the values read here
    // are only for showing, so read them from the two whole states (good for the common one-op changes)
    if (op.op === 'add') return { op: 'add', path: op.path, after: op.value };
    if (op.op === 'remove') return { op: 'remove', path: op.path, before: atPointer(left, op.path) };
    if (op.op === 'replace') return { op: 'replace', path: op.path, before: atPointer(left, op.path), after: op.value };
    return { op: 'move', path: op.path, before: op.from };
  });
}

/** what a value says in words: a message is its role and text, a value slot its value or preview */
function plain(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const o = value as Record<string, unknown>;
    if (typeof o.role === 'string' && o.content && typeof o.content === 'object') return `${o.role}${typeof o.op === 'string' ? ` ${o.op}` : ''}: ${plain(o.content)}`;
    if (typeof o.size === 'number' && 'value' in o) return plain(o.value);
    if (typeof o.size === 'number' && typeof o.preview === 'string') return `${JSON.stringify(o.preview)}… (${o.size} characters)`;
    if (typeof o.path === 'string' && o.content && typeof o.content === 'object') return `${o.path}: ${plain(o.content)}`;
  }
  return JSON.stringify(value) ?? String(value);
}

/** a value in one short line, for the list of changes */
export function shortValue(value: unknown, max = 120): string {
  if (value === undefined) return '';
  const text = plain(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** the most a change's title says (a large value is a preview already; this bounds a wide object) */
export const FULL_VALUE_MAX_CHARS = 2000;

/**
 * A value as shortValue says it, whole — the title of a change line cut with "…", so the rest can
 * be read on hover — or undefined when the line shows it all already (no title to repeat it).
 */
export function fullValue(value: unknown, max = 120): string | undefined {
  if (value === undefined) return undefined;
  const text = plain(value);
  if (text.length <= max) return undefined;
  return text.length > FULL_VALUE_MAX_CHARS ? `${text.slice(0, FULL_VALUE_MAX_CHARS - 1)}…` : text;
}
