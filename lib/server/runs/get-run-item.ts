/**
 * `GET /api/runs/<id>/items/<seq>`: the detail panel of the item recorded at
 * seq — a stage with the context it was handed, a model turn with the request
 * it was sent, a tool call with its args and outcome, a processor step with
 * its input — each rebuilt from the log by the kernel (lib/kernel/rebuild.ts)
 * and checked against its recorded memo key (`rebuilt.verified`).
 */
import { EventNotFoundError } from '../../kernel/errors';
import { itemView } from '../../kernel/inspect';
import { priceFor } from '../../kernel/prices';
import type { RunItemView } from '../../views/inspector';
import type { Host } from '../host';
import { foldRun } from './run-folds';
import { priceTableFrom } from './prices';

export async function getRunItem(host: Pick<Host, 'store' | 'env' | 'cwd'>, runId: string, seq: number): Promise<RunItemView> {
  const { run, fold } = await foldRun(host.store, runId);
  const item = Number.isInteger(seq) && seq >= 1 ? itemView(fold, seq, { price: priceFor(priceTableFrom(host.env, host.cwd), run.model) }) : null;
  if (!item) throw new EventNotFoundError(runId, seq, fold.lastSeq);
  return item;
}
