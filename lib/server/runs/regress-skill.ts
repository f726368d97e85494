/**
 * `stagecraft regress SKILL`, `POST /api/skills/<name>/regress` (the studio's
 * "Check against past runs"): the postprocessor of a version — the one asked
 * for, the latest, or unsaved files laid over it (the editor's text) — run
 * over the finish artifacts of the skill's past runs, with zero model calls
 * (lib/kernel/regress.ts: world reads answered from each run's recording,
 * code steps really run, in one sandbox over a scratch workspace). Nothing is
 * recorded. The answer lists the runs whose caller artifact or status would
 * change, with the diff and the first step that went another way.
 */
import { createWorkspaceFiles } from '../../sandbox/workspace-files';
import { compareLogs, diffValues } from '../../kernel/compare';
import { EVENT } from '../../kernel/events';
import type { Json } from '../../kernel/json';
import { relativeErrorValue } from '../../kernel/error-info';
import { bundleRootsOf } from '../../kernel/provenance';
import { canonicalJson } from '../../kernel/memo';
import { POST_PHASE } from '../../kernel/plan';
import type { RunEvent, RunRecord } from '../../kernel/ports';
import { FINISH_ARTIFACT_PATH } from '../../kernel/runner';
import { replayPostprocessor } from '../../kernel/regress';
import { createCodeSandbox } from '../../sandbox';
import type { BundleFiles } from '../../skill/bundle';
import type { CompareDivergenceView, RegressRunView, RegressView } from '../../views';
import { workspaceOf, type Host } from '../host';
import { randomIds, systemClock } from '../system';
import { chooseVersion, requireTrustedCode } from './derived-version';
import { removeTree } from './sweep-workspaces';
import { compareDivergenceView } from './divergence-views';

export type RegressRequest = { version?: string; files?: BundleFiles; limit?: number; trust?: boolean };

export const DEFAULT_REGRESS_LIMIT = 50;

type Outcome = { status: string; output: Json; error: Json | null };

const valueOf = (o: Outcome): Json => (o.status === 'completed' ? o.output : { error: o.error });
const same = (a: Outcome, b: Outcome) => a.status === b.status && canonicalJson(a.output) === canonicalJson(b.output);

/** the recorded postprocessor steps and the outcome: what a regression compares with */
const postOnly = (events: readonly RunEvent[]) => events.filter((e) => e.type !== EVENT.stepCompleted || String(e.data.position).startsWith(`${POST_PHASE}/`));

export async function regressSkill(host: Host, skill: string, req: RegressRequest = {}): Promise<RegressView> {
  const chosen = await chooseVersion(host, skill, { version: req.version, files: req.files });
  requireTrustedCode(host, chosen, { trust: req.trust, what: `Checking ${skill} against past runs` });
  const runs = (await host.store.listRuns({ skillName: skill, kind: ['run', 'fork'], limit: req.limit ?? DEFAULT_REGRESS_LIMIT })).filter((r) => r.status !== 'running');
  const scratch = workspaceOf(host, `regress-${randomIds.newId('run')}`);
  // the quota a run's workspace has: without it, the code checked here could fill the disk
  const quota = host.limits().workspaceQuota;
  const sandbox = createCodeSandbox({ bundleDir: chosen.copyDir, workDir: scratch, isolation: host.isolation(), workspaceQuota: quota });
  const changed: RegressRunView[] = [];
  const skipped: RegressView['skipped'] = [];
  let checked = 0;
  try {
    for (const run of runs) {
      const artifacts = await host.store.listArtifacts(run.id);
      if (!artifacts.some((a) => a.path === FINISH_ARTIFACT_PATH)) {
        skipped.push({ runId: run.id, reason: `it ${run.status === 'completed' ? 'ran before finish artifacts were kept' : `${run.status} before its postprocessor`}: there is no finish artifact to run it on` });
        continue;
      }
      checked++;
      const view = await regressOne(run, artifacts, await host.store.readEvents(run.id));
      if (view) changed.push(view);
    }
  } finally {
    await sandbox.close();
    // code made what is there (a tree nested thousands deep defeats Node's rm): left to the sweep if it stays
    await removeTree(scratch);
  }
  return { skill, version: chosen.origin === 'unsaved' ? null : chosen.hash, unsaved: chosen.origin === 'unsaved', checked, changed, skipped };

  async function regressOne(run: RunRecord, artifacts: Awaited<ReturnType<Host['store']['listArtifacts']>>, events: RunEvent[]): Promise<RegressRunView | null> {
    const { outcome, events: now } = await replayPostprocessor(
      chosen.plan,
      { clock: systemClock, ids: randomIds, sandbox, files: createWorkspaceFiles({ root: scratch, readFallback: chosen.copyDir, quota }) },
      { run, events, artifacts },
    );
    // the bundle folders each side ran from, on this server: their files are named as the run page
    // names them (sanitize.py:21), and the server's folders never reach the browser
    const wasRoots = [...bundleRootsOf(events), run.bundleDir];
    const nowRoots = [chosen.copyDir, ...bundleRootsOf(now)];
    const recorded: Outcome = { status: run.status, output: run.output, error: run.error && relativeErrorValue(run.error, wasRoots) };
    const result: Outcome = { status: outcome.status, output: outcome.output, error: outcome.error && relativeErrorValue(outcome.error, nowRoots) };
    if (same(recorded, result)) return null;
    const first = compareLogs(postOnly(events), now).divergences[0];
    return {
      runId: run.id,
      createdAt: run.createdAt,
      recorded,
      now: result,
      diff: diffValues(valueOf(recorded), valueOf(result)),
      firstDivergence: first ? (relativeErrorValue(compareDivergenceView(first) as Json, [...wasRoots, ...nowRoots]) as CompareDivergenceView) : null,
    };
  }
}
