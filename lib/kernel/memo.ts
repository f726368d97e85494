/**
 * The memo: how a step is identified across executions of the same run, and
 * what a recorded step looks like.
 *
 * A step's *position* is where it sits in the run (`draft/r2/model`,
 * `draft/pre/0`, `__post__/3`, `draft/r1/tool/0`); its *definition hash* is
 * what it is; its *key* is hash(phase, position, definition, input). On resume
 * a recorded key is answered from the log instead of executing — except for
 * world-purity ops, which read a world that may have changed. A recorded
 * position whose definition differs is a determinism error, never a silent
 * re-run.
 *
 * Owns: keys, hashing, the reading of `step_completed` events. Does not:
 * decide when to commit (journal.ts) or execute anything.
 */
import { hash } from 'node:crypto';
import type { Json } from './json';
import type { MemoEntry, RunEvent } from './ports';
import { EVENT } from './events';

/**
 * JSON with object keys sorted, so equal values hash equally. Memo keys already
 * recorded depend on this exact text: memo.test.ts pins it.
 */
export function canonicalJson(v: unknown): string {
  switch (typeof v) {
    case 'string':
      return JSON.stringify(v);
    case 'number':
      return Number.isFinite(v) ? String(v) : 'null'; // as JSON.stringify writes numbers
    case 'boolean':
      return v ? 'true' : 'false';
    case 'object':
      break;
    default:
      return JSON.stringify(v ?? null);
  }
  if (v === null) return 'null';
  if (Array.isArray(v)) {
    let s = '[';
    for (let i = 0; i < v.length; i++) s += (i === 0 ? '' : ',') + canonicalJson(v[i]);
    return s + ']';
  }
  const o = v as Record<string, unknown>;
  const keys = sortedKeys(o);
  let s = '{';
  let first = true;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    const x = o[k];
    if (x === undefined) continue;
    s += (first ? '' : ',') + quotedKey(k) + ':' + canonicalJson(x);
    first = false;
  }
  return s + '}';
}

/** An object's keys in the order canonicalJson writes them: sorted. */
export function sortedKeys(o: object): string[] {
  const keys = Object.keys(o);
  for (let i = 1; i < keys.length; i++) {
    if (keys[i - 1] > keys[i]) {
      keys.sort(); // only when they are not in order already
      break;
    }
  }
  return keys;
}

/** JSON.stringify of a key, remembered: the same few keys recur in every value hashed */
const QUOTED_KEYS = new Map<string, string>();
const MAX_QUOTED_KEYS = 10_000;
export function quotedKey(k: string): string {
  let q = QUOTED_KEYS.get(k);
  if (q === undefined) {
    q = JSON.stringify(k);
    if (QUOTED_KEYS.size < MAX_QUOTED_KEYS) QUOTED_KEYS.set(k, q);
  }
  return q;
}

/** one-shot `hash` (Node ≥ 20.12): about 40% cheaper per call than a Hash object */
export function sha256(text: string): string {
  return hash('sha256', text, 'hex');
}

export function hashJson(v: unknown): string {
  return sha256(canonicalJson(v)).slice(0, 32);
}

const DEFINITION_HASHES = new WeakMap<object, string>();

/** hashJson of a step definition, cached per definition object (definitions are built once per step spec) */
export function definitionHash(definition: Json): string {
  if (definition === null || typeof definition !== 'object') return hashJson(definition);
  let h = DEFINITION_HASHES.get(definition);
  if (h === undefined) DEFINITION_HASHES.set(definition, (h = hashJson(definition)));
  return h;
}

export function memoKey(phase: string, position: string, defHash: string, input: unknown): string {
  return hashJson([phase, position, defHash, input]);
}

export function memoEntryOf(e: RunEvent): MemoEntry | null {
  if (e.type !== EVENT.stepCompleted) return null;
  const d = e.data;
  return {
    seq: e.seq,
    position: String(d.position),
    key: String(d.key),
    defHash: String(d.defHash),
    definition: (d.definition ?? null) as Json,
    kind: String(d.kind),
    status: String(d.status),
    output: (d.output ?? null) as Json,
  };
}
