/** `?status=running,failed` → the statuses, or a clear error naming the allowed ones. */
import { UsageError } from '../../kernel/errors';
import { RUN_STATUSES, type RunStatus } from '../../kernel/ports';

export function parseStatuses(raw: string | null | undefined): RunStatus[] | undefined {
  if (raw === null || raw === undefined || raw === '') return undefined;
  const statuses = raw.split(',');
  const bad = statuses.filter((x) => !RUN_STATUSES.includes(x as RunStatus));
  if (bad.length) throw new UsageError(`status ${bad.join(',')}: a status is one of ${RUN_STATUSES.join(', ')}`);
  return statuses as RunStatus[];
}
