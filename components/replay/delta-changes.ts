/**
 * A jsondiffpatch delta (what a divergence's `diff` holds: from the first
 * value to the second) as a flat list of changes — the path of each changed
 * value, what it was and what it is — for a screen to draw as rows. Written
 * as a formatter of jsondiffpatch's own (its BaseFormatter walks the delta,
 * array indices and all), so the browser reads the delta the kernel wrote
 * with the library that wrote it; its HTML formatter is not used because it
 * returns markup (and a script) to inject, where React draws elements.
 *
 * Owns: the walk and path labels. Does not: compute deltas (lib/kernel/compare.ts).
 */
import BaseFormatter, { type BaseFormatterContext, type DeltaType, type NodeType } from 'jsondiffpatch/formatters/base';
import type { AddedDelta, DeletedDelta, Delta, ModifiedDelta, MovedDelta, ObjectDelta, ArrayDelta, TextDiffDelta } from 'jsondiffpatch';

export type DeltaChange = {
  /** where in the value: `paragraphs[0]`, `a.b`, `["odd key"]`; `$` for the value itself */
  path: string;
  change: 'added' | 'removed' | 'changed' | 'moved';
  /** the value before (absent for an added one) */
  before?: unknown;
  /** the value after (absent for a removed one) */
  after?: unknown;
};

type Context = BaseFormatterContext & { keys: (string | number)[]; changes: DeltaChange[] };

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** `a.b[0]["odd key"]`, or `$` for the root */
export function pathLabel(keys: readonly (string | number)[]): string {
  if (keys.length === 0) return '$';
  return keys
    .map((k, i) => (typeof k === 'number' ? `[${k}]` : IDENTIFIER.test(k) ? `${i === 0 ? '' : '.'}${k}` : `[${JSON.stringify(k)}]`))
    .join('');
}

class ChangeListFormatter extends BaseFormatter<Context> {
  list(delta: Delta, left: unknown): DeltaChange[] {
    const context = { keys: [], changes: [] } as unknown as Context;
    this.prepareContext(context);
    this.recurse(context, delta, left);
    return context.changes;
  }

  private push(context: Context, change: Omit<DeltaChange, 'path'>) {
    context.changes.push({ path: pathLabel(context.keys), ...change });
  }

  rootBegin() {}
  rootEnd() {}
  nodeBegin(context: Context, key: string, leftKey: string | number | undefined, type: DeltaType, nodeType: NodeType) {
    void nodeType;
    // an array item: its index on the side it is on (a removed or moved item: the first value's)
    const isArrayItem = typeof leftKey === 'number';
    if (!isArrayItem) context.keys.push(key);
    else context.keys.push(type === 'deleted' || type === 'moved' ? leftKey : Number(key.replace(/^_/, '')));
  }
  nodeEnd(context: Context) {
    context.keys.pop();
  }
  format_unchanged() {}
  format_movedestination() {}
  format_node(context: Context, delta: ObjectDelta | ArrayDelta, left: unknown) {
    this.formatDeltaChildren(context, delta, left);
  }
  format_added(context: Context, delta: AddedDelta) {
    this.push(context, { change: 'added', after: delta[0] });
  }
  format_modified(context: Context, delta: ModifiedDelta) {
    this.push(context, { change: 'changed', before: delta[0], after: delta[1] });
  }
  format_deleted(context: Context, delta: DeletedDelta) {
    this.push(context, { change: 'removed', before: delta[0] });
  }
  format_moved(context: Context, delta: MovedDelta, left: unknown) {
    this.push(context, { change: 'moved', before: left, after: `moved to index ${delta[1]}` });
  }
  format_textdiff(context: Context, delta: TextDiffDelta, left: unknown) {
    // the kernel's differ makes no text diffs; were one to come, the old text and the patch are what there is
    this.push(context, { change: 'changed', before: left, after: delta[0] });
  }
}

const formatter = new ChangeListFormatter();

/**
 * An array item replaced in place is, to jsondiffpatch, one item removed and another added at the
 * same index; to a reader it is one value that changed.
 */
function pairReplacements(list: DeltaChange[]): DeltaChange[] {
  const out: DeltaChange[] = [];
  for (const c of list) {
    const other = c.change === 'added' ? 'removed' : c.change === 'removed' ? 'added' : null;
    const i = other ? out.findIndex((o) => o.change === other && o.path === c.path) : -1;
    if (i < 0) {
      out.push(c);
      continue;
    }
    const [removed, added] = c.change === 'added' ? [out[i], c] : [c, out[i]];
    out[i] = { path: c.path, change: 'changed', before: removed.before, after: added.after };
  }
  return out;
}

/** The changes a delta makes to `left` (the first value), in the order of the value's keys. */
export function deltaChanges(delta: unknown, left: unknown): DeltaChange[] {
  if (delta === null || delta === undefined) return [];
  return pairReplacements(formatter.list(delta as Delta, left));
}
