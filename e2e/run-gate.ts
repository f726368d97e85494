// Code steps that wait for the test's go instead of sleeping: a step that runs `gatedWait` ends once
// the file it names exists in the run's workspace (the one folder a code step sees besides its bundle,
// and its current folder), so a test reads the page between any two steps, however loaded the
// machine, and waits on nothing but the run. The step's timeout_ms bounds the wait: a test that never
// says go fails its run instead of hanging.
import { expect } from '@playwright/test';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** a node module whose `wait` ends once `go-<n>` is in the workspace, n being `waited` (the gated steps before it), and counts it */
export const gatedWait = `import { existsSync } from 'node:fs';
export async function wait(v) {
  const n = v.waited ?? 0;
  while (!existsSync(\`go-\${n}\`)) await new Promise((r) => setTimeout(r, 50));
  return { ...v, waited: n + 1 };
}
`;

/**
 * A run's workspace, once it is made: the e2e server keeps its data in a fresh sc-e2e-* folder under
 * the system's temp folder (e2e/serve.mjs), and a run id is unique, so the one
 * `<temp>/sc-e2e-*\/workspaces/<run id>` is it. Undefined while there is none.
 */
export function workspaceIfMade(runId: string): string | undefined {
  return readdirSync(tmpdir())
    .filter((d) => d.startsWith('sc-e2e-'))
    .map((d) => path.join(tmpdir(), d, 'workspaces', runId))
    .find((d) => existsSync(d));
}

/** a run's workspace, waited for */
export async function workspaceOf(runId: string): Promise<string> {
  let found: string | undefined;
  await expect.poll(() => (found = workspaceIfMade(runId)), { timeout: 60_000 }).toBeTruthy();
  return found!;
}

/** lets gated step n (0-based: the gated steps before it) of the run with this workspace end */
export function go(workspace: string, n: number): void {
  writeFileSync(path.join(workspace, `go-${n}`), '');
}
