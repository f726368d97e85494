/**
 * `GET /api/runs/<id>/value?seq=K&path=P`: one value in full, named by a ref a
 * state or item view gave instead of the value itself (values over a few KB
 * are sent as refs, so a 5 MB tool result costs the page nothing until it is
 * opened). `path` is `state/…`, `item/…` or `event/…` (lib/kernel/values.ts).
 */
import { EventNotFoundError, ValueNotFoundError } from '../../kernel/errors';
import { valueAt } from '../../kernel/inspect';
import type { RunValueView } from '../../views/inspector';
import type { Host } from '../host';
import { foldRun } from './run-folds';

export async function getRunValue(host: Pick<Host, 'store'>, runId: string, ref: { seq: number; path: string }): Promise<RunValueView> {
  const { fold } = await foldRun(host.store, runId);
  if (!Number.isInteger(ref.seq) || ref.seq < 0 || ref.seq > fold.lastSeq) throw new EventNotFoundError(runId, ref.seq, fold.lastSeq);
  const value = valueAt(fold, ref.seq, ref.path);
  if (value === undefined) throw new ValueNotFoundError(runId, ref.seq, ref.path);
  return { runId, seq: ref.seq, path: ref.path, value };
}
