/**
 * `stagecraft replay RUN`, `POST /api/runs/<id>/replay`: re-executes a
 * recorded run against a skill version — the skill's latest, or the one
 * asked for — with zero model calls (lib/kernel/recording.ts says what is
 * answered from the recording and what really runs), as a run of its own
 * (kind `replay`, parent the replayed run, a scratch workspace of its own),
 * then compares the two logs step by step. The answer says `identical`, or
 * lists every divergence, the first first.
 *
 * A replay of a fork carries the fork's edit, so an unchanged fork replays
 * identical too. Imported code runs only in the sandbox (derived-version.ts).
 */
import { compareLogs } from '../../kernel/compare';
import { EVENT } from '../../kernel/events';
import type { ForkPoint } from '../../kernel/fork-edits';
import type { JsonObject } from '../../kernel/json';
import type { ModelTurn, RunEvent } from '../../kernel/ports';
import { startRun } from '../../kernel/runner';
import { createReplayModel, type RecordedTurn } from '../../models';
import type { ReplayView } from '../../views';
import { kernelDeps, type Host } from '../host';
import { randomIds } from '../system';
import { chooseVersion, endedRun, requireTrustedCode, type VersionChoice } from './derived-version';
import { replayDivergenceView, stepCounts } from './divergence-views';

export type ReplayRequest = Pick<VersionChoice, 'version' | 'skillDir'> & {
  /** run an imported version's code even where no sandbox works (the CLI's --trust; never the app) */
  trust?: boolean;
  /** the replay's id, chosen by the caller (the CLI, to name it if it is stopped mid-run); default a new one */
  runId?: string;
};

/** the recorded model turns, for the replay model (a safety net: the recording answers every turn first) */
function recordedTurns(events: readonly RunEvent[]): RecordedTurn[] {
  const out: RecordedTurn[] = [];
  for (const e of events) {
    if (e.type !== EVENT.stepCompleted || e.data.kind !== 'model') continue;
    const m = /^([^/#]+)(?:#(\d+))?\/r(\d+)\/model$/.exec(String(e.data.position));
    if (m) out.push({ phase: m[1], visit: m[2] ? Number(m[2]) : 1, round: Number(m[3]), turn: e.data.output as unknown as ModelTurn });
  }
  // a turn recorded twice (never for a model step) keeps its last record
  return [...new Map(out.map((t) => [`${t.phase}#${t.visit}/${t.round}`, t])).values()];
}

export async function replayRun(host: Host, runId: string, req: ReplayRequest = {}): Promise<ReplayView> {
  const run = await endedRun(host, runId);
  const chosen = await chooseVersion(host, run.skillName, { ...req, fallbackVersionId: run.skillVersionId, runBundleDir: run.bundleDir, forRun: run });
  requireTrustedCode(host, chosen, { trust: req.trust, what: `Replaying run ${runId}` });
  const events = await host.store.readEvents(runId);
  const point = run.kind === 'fork' ? ((events[0]?.data.fork ?? null) as ForkPoint | null) : null;
  const replayId = req.runId ?? randomIds.newId('run');
  const model = createReplayModel(recordedTurns(events), { name: `replay:${runId}` });
  const deps = kernelDeps(host, model, { runId: replayId, bundleDir: chosen.copyDir });
  let outcome;
  try {
    outcome = await startRun(chosen.plan, deps, {
      input: run.input as JsonObject,
      skillText: chosen.files['skill.md'] ?? '',
      skillVersionId: chosen.versionId,
      runId: replayId,
      bundleDir: chosen.bundleDir,
      derivation: { mode: 'replay', parentRunId: runId, events, point },
    });
  } finally {
    await deps.close();
  }
  const cmp = compareLogs(events, await host.store.readEvents(replayId));
  const identical = cmp.divergences.length === 0;
  return {
    verdict: identical ? 'identical' : 'diverged',
    identical,
    runId,
    replayRunId: replayId,
    skill: run.skillName,
    version: chosen.hash,
    recordedStatus: run.status,
    status: outcome.status,
    stoppedAt: cmp.stoppedAt,
    divergences: cmp.divergences.map(replayDivergenceView),
    steps: stepCounts(cmp),
  };
}
