/**
 * Many runs started at once through the HTTP API of a running app, measured
 * while they run: how fast `GET /api/skills` answers (p50, p95, max), how much
 * memory the server holds (peak RSS of the app's own process, and of the whole
 * process group), how many runs were driven at once at most and how many waited
 * `queued` (from each run's log afterwards: driven from its `run_admitted`, or
 * its creation, to its end — exact, and no polling adds to the load), and how
 * they ended. The admission HTTP test runs it small; `npm run
 * test:load` runs it at 200.
 */
import { readdirSync, readFileSync } from 'node:fs';

export type LoadFigures = {
  runs: number;
  maxRunsAtOnce: number;
  sawQueued: number;
  completed: number;
  otherEnds: Record<string, number>;
  postMs: { p50: number; p95: number; max: number };
  skillsMs: { p50: number; p95: number; max: number; samples: number };
  /** GETs whose kept-alive connection was reset by the server and that were sent again */
  resets: number;
  serverPeakRssMb: number;
  groupPeakRssMb: number;
  wallMs: number;
};

type Json = Record<string, unknown>;

export const SLOW_SKILL = (stepMs: number, name = 'load_probe'): Record<string, string> => ({
  'skill.md': `---\nname: ${name}\nentry: go\ngraph:\n  go: []\noutput_schema: { type: object }\npostprocessor:\n  output_schema: { type: object, required: [waited] }\n  steps:\n    - { type: node, module: ./wait.mjs, function: wait }\n---\nGo.\n`,
  'wait.mjs': `export async function wait(v) { await new Promise((r) => setTimeout(r, ${stepMs})); return { waited: ${stepMs}, n: v.n ?? null }; }\n`,
  'model.yaml': 'turns:\n  - finish: {}\n',
});

/** Resident memory (MB) of one process, and of every process in its process group. */
export function rssOf(pid: number): { own: number; group: number } {
  const pageMb = 4096 / (1024 * 1024);
  const statOf = (p: string) => {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return { pgrp: Number(fields[2]), rssPages: Number(fields[21]) };
    } catch {
      return null;
    }
  };
  let group = 0;
  let own = 0;
  const pgrp = statOf(String(pid))?.pgrp;
  for (const p of readdirSync('/proc')) {
    if (!/^\d+$/.test(p)) continue;
    const s = statOf(p);
    if (!s || s.pgrp !== pgrp) continue;
    group += s.rssPages * pageMb;
    // the app's server: the biggest process of the group (next start serves in one process)
    own = Math.max(own, s.rssPages * pageMb);
  }
  return { own, group };
}

const quantile = (xs: number[], q: number) => {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor(q * s.length))]);
};

export async function runLoad(app: { url: string; pid: number; headers?: Record<string, string> }, opts: { runs: number; stepMs: number; timeoutMs: number }): Promise<LoadFigures> {
  const headers = { 'content-type': 'application/json', origin: app.url, ...app.headers };
  let resets = 0;
  const call = async (method: string, p: string, body?: unknown) => {
    const send = () => fetch(`${app.url}${p}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    // a kept-alive connection the server closed as it was reused (ECONNRESET) is tried again on a fresh one,
    // the time lost counted in the latency; `resets` says how often (GETs only: a POST might have been taken)
    let r: Response;
    try {
      r = await send();
    } catch (e) {
      if (method !== 'GET' || (e as { cause?: { code?: string } }).cause?.code !== 'ECONNRESET') throw e;
      resets++;
      r = await send();
    }
    const text = await r.text();
    if (!r.ok) throw new Error(`${method} ${p}: ${r.status} ${text.slice(0, 300)}`);
    return JSON.parse(text) as Json;
  };
  const skills = (await call('GET', '/api/skills')).skills as { name: string }[];
  if (!skills.some((s) => s.name === 'load_probe')) await call('POST', '/api/skills', { name: 'load_probe', from: 'blank' });
  await call('POST', '/api/skills/load_probe/versions', { files: SLOW_SKILL(opts.stepMs) });

  const started = Date.now();
  let done = false;
  const skillsMs: number[] = [];
  let serverPeak = 0;
  let groupPeak = 0;
  const probe = (async () => {
    while (!done) {
      const t = performance.now();
      await call('GET', '/api/skills');
      skillsMs.push(performance.now() - t);
      const { own, group } = rssOf(app.pid);
      serverPeak = Math.max(serverPeak, own);
      groupPeak = Math.max(groupPeak, group);
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  const postMs: number[] = [];
  const ids = await Promise.all(
    Array.from({ length: opts.runs }, async (_, n) => {
      const t = performance.now();
      const r = await call('POST', '/api/runs', { skill: 'load_probe', input: { n } });
      postMs.push(performance.now() - t);
      return String(r.runId);
    }),
  );
  // until none is queued or running (one short answer at a time: measuring must not be the load)
  for (;;) {
    const open = (await call('GET', '/api/runs?skill=load_probe&status=queued,running&limit=500')).runs as unknown[];
    if (open.length === 0 || Date.now() - started > opts.timeoutMs) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  done = true;
  await probe;
  // how they ended, and when each was driven: from its run_admitted (a queued run) or its creation to its last update
  const ends: Record<string, number> = {};
  const spans: [number, number][] = [];
  let sawQueued = 0;
  const items = new Map(((await call('GET', `/api/runs?skill=load_probe&limit=500`)).runs as { runId: string; createdAt: number; updatedAt: number }[]).map((r) => [r.runId, r]));
  for (const id of ids) {
    const run = await call('GET', `/api/runs/${id}`);
    const status = String(run.status);
    ends[status] = (ends[status] ?? 0) + 1;
    const { events } = (await call('GET', `/api/runs/${id}/events?limit=5`)) as { events: { type: string; at: number }[] };
    const admitted = events.find((e) => e.type === 'run_admitted');
    if (admitted) sawQueued++;
    const item = items.get(id);
    if (item) spans.push([admitted?.at ?? item.createdAt, item.updatedAt]);
  }
  const edges = spans.flatMap(([a, b]): [number, number][] => [[a, 1], [b, -1]]).sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  let now = 0;
  let maxRunsAtOnce = 0;
  for (const [, d] of edges) maxRunsAtOnce = Math.max(maxRunsAtOnce, (now += d));
  const { completed = 0, ...otherEnds } = ends;
  return {
    runs: opts.runs,
    maxRunsAtOnce,
    sawQueued,
    completed,
    otherEnds,
    postMs: { p50: quantile(postMs, 0.5), p95: quantile(postMs, 0.95), max: Math.round(Math.max(...postMs)) },
    skillsMs: { p50: quantile(skillsMs, 0.5), p95: quantile(skillsMs, 0.95), max: Math.round(Math.max(0, ...skillsMs)), samples: skillsMs.length },
    resets,
    serverPeakRssMb: Math.round(serverPeak),
    groupPeakRssMb: Math.round(groupPeak),
    wallMs: Date.now() - started,
  };
}
