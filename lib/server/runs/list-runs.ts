/** Recent runs, newest first, by skill and status: `GET /api/runs`, the skill page's run list. */
import type { RunStatus } from '../../kernel/ports';
import type { RunListItemView } from '../../views';
import type { Host } from '../host';

export type RunQuery = { skill?: string; status?: RunStatus[]; limit?: number };

export async function listRuns(host: Pick<Host, 'store' | 'skills'>, q: RunQuery = {}): Promise<RunListItemView[]> {
  const runs = await host.store.listRuns({ skillName: q.skill, status: q.status, limit: q.limit ?? 50 });
  const hashes = await host.skills.versionHashes(runs.map((r) => r.skillVersionId).filter((id): id is string => id !== null));
  return runs.map((r) => ({
    runId: r.id,
    skill: r.skillName,
    version: r.skillVersionId ? (hashes.get(r.skillVersionId) ?? null) : null,
    status: r.status,
    model: r.model,
    kind: r.kind,
    parentRunId: r.parentRunId,
    forkPoint: r.forkPoint,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  }));
}
