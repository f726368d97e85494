/**
 * Many runs started at once through the HTTP API of a running app, measured
 * while they run: how fast `GET /api/skills` answers (p50, p95, max), how much
 * memory the server holds (peak RSS of the app's own process, and of the whole
 * process group: sandbox workers included), how many runs were driven at once
 * at most (polled from `GET /api/runs?status=running`), whether any was seen
 * `queued`, and how they ended. The admission HTTP test runs it small; `npm run
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
  serverPeakRssMb: number;
  groupPeakRssMb: number;
  wallMs: number;
};

type Json = Record<string, unknown>;

export const SLOW_SKILL = (stepMs: number): Record<string, string> => ({
  'skill.md': `---\nname: load_probe\nentry: go\ngraph:\n  go: []\noutput_schema: { type: object }\npostprocessor:\n  output_schema: { type: object, required: [waited] }\n  steps:\n    - { type: node, module: ./wait.mjs, function: wait }\n---\nGo.\n`,
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
  const call = async (method: string, p: string, body?: unknown) => {
    const r = await fetch(`${app.url}${p}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
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
  let maxRunsAtOnce = 0;
  const queuedSeen = new Set<string>();
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
  const watch = (async () => {
    while (!done) {
      const running = (await call('GET', '/api/runs?skill=load_probe&status=running&limit=500')).runs as unknown[];
      maxRunsAtOnce = Math.max(maxRunsAtOnce, running.length);
      for (const r of (await call('GET', '/api/runs?skill=load_probe&status=queued&limit=500')).runs as { runId: string }[]) queuedSeen.add(r.runId);
      await new Promise((r) => setTimeout(r, 100));
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
  const ends: Record<string, number> = {};
  for (;;) {
    const runs = (await call('GET', '/api/runs?skill=load_probe&limit=500')).runs as { runId: string; status: string }[];
    const mine = runs.filter((r) => ids.includes(r.runId));
    const finished = mine.filter((r) => r.status !== 'running' && r.status !== 'queued');
    if (finished.length === ids.length) {
      for (const r of finished) ends[r.status] = (ends[r.status] ?? 0) + 1;
      break;
    }
    if (Date.now() - started > opts.timeoutMs) {
      for (const r of mine) ends[r.status] = (ends[r.status] ?? 0) + 1;
      break;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  done = true;
  await Promise.all([probe, watch]);
  const { completed = 0, ...otherEnds } = ends;
  return {
    runs: opts.runs,
    maxRunsAtOnce,
    sawQueued: queuedSeen.size,
    completed,
    otherEnds,
    postMs: { p50: quantile(postMs, 0.5), p95: quantile(postMs, 0.95), max: Math.round(Math.max(...postMs)) },
    skillsMs: { p50: quantile(skillsMs, 0.5), p95: quantile(skillsMs, 0.95), max: Math.round(Math.max(0, ...skillsMs)), samples: skillsMs.length },
    serverPeakRssMb: Math.round(serverPeak),
    groupPeakRssMb: Math.round(groupPeak),
    wallMs: Date.now() - started,
  };
}
