/**
 * The CLI beside the running app, for the tests of commands that go through it: the built app started
 * on a data dir of the test's (`start`), the CLI run on that data dir as a second terminal runs it (no
 * DATABASE_URL, no token), the app's API called directly, and the line the CLI says on stderr when it
 * goes through the app. The app is stopped and the data dir removed after the test file.
 * `refusedThroughApp`: a command's uses that cannot go through the app, each `store_locked` saying why.
 * `sameOutput`: what a command prints, with what differs from one run to the next made the same.
 */
import assert from 'node:assert/strict';
import { copyFileSync, cpSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after } from 'node:test';
import type { RouteAnswer, RouteDef, RouteInput } from '../../lib/api/route-def';
import { callRoute } from '../../lib/client/api';
import { startApp, type AppServer } from '../../lib/server/http/testing/app-server';
import { ROOT, runCli, type CliResult } from './spawn-cli';

export type BesideApp = {
  dataDir: string;
  start(): Promise<AppServer>;
  app(): AppServer;
  /** the env of a second terminal on the data dir */
  env(): NodeJS.ProcessEnv;
  cli(args: string[], stdin?: string): Promise<CliResult>;
  call<R extends RouteDef>(route: R, input: RouteInput<R>): Promise<RouteAnswer<R>>;
  /** what the CLI says on stderr when a command goes through the app */
  note(): string;
};

/** a command's output with what differs from one run to the next made the same: the run's id, how long its steps took */
export const sameOutput = (out: string): string => out.replace(/\brun_[a-z0-9]+/g, 'RUN').replace(/"durationMs":\d+/g, '"durationMs":0');

export function besideApp(prefix: string): BesideApp {
  const dataDir = mkdtempSync(path.join(tmpdir(), prefix));
  let app: AppServer | undefined;
  after(async () => {
    await app?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });
  const env = () => {
    const e: NodeJS.ProcessEnv = { ...process.env, STAGECRAFT_DATA_DIR: dataDir };
    delete e.DATABASE_URL;
    delete e.STAGECRAFT_TOKEN;
    return e;
  };
  return {
    dataDir,
    start: async () => (app = await startApp({ dataDir })),
    app: () => app!,
    env,
    cli: (args, stdin) => runCli(args, { env: env(), stdin }),
    call: (route, input) => callRoute(route, input, { baseUrl: app!.url }),
    note: () => `(through the app at ${app!.url}: it holds the embedded store)`,
  };
}

/**
 * `stagecraft <command> …args --json` for each case, while the app holds the store: each exits 1 with
 * `store_locked`, saying that the command cannot go through the app here, and why (`why`).
 */
export async function refusedThroughApp(cli: BesideApp['cli'], command: string, cases: readonly (readonly [args: readonly string[], why: RegExp])[]): Promise<void> {
  for (const [args, why] of cases) {
    const r = await cli([command, ...args, '--json']);
    assert.equal(r.code, 1, r.out);
    const { error } = JSON.parse(r.out) as { error: { code: string; message: string } };
    assert.equal(error.code, 'store_locked');
    assert.match(error.message, new RegExp(`\`stagecraft ${command}\` cannot go through it here: `));
    assert.match(error.message, why);
  }
}

/**
 * `count` runs left interrupted while the app holds the store: CLI runs of the crash fixture (copied
 * into `dir`) killed after their third commit (STAGECRAFT_FAULT), whose model script was away while
 * the app started (so its own resume at its start failed), newest first. Starts the app.
 */
export async function interruptedRuns(b: BesideApp, dir: string, count: number): Promise<string[]> {
  const bundle = path.join(dir, 'probe');
  const model = path.join(dir, 'probe-model.yaml');
  cpSync(path.join(ROOT, 'lib', 'server', 'crash', 'fixture'), bundle, { recursive: true });
  copyFileSync(path.join(bundle, 'model.yaml'), model);
  for (let i = 0; i < count; i++) {
    const crashed = await runCli(['run', bundle, '--model', `scripted:${model}`, '--json'], { env: { ...b.env(), STAGECRAFT_FAULT: 'after-commit:3' } });
    assert.notEqual(crashed.code, 0, 'the run was killed');
  }
  const listed = await b.cli(['runs', '--status', 'running', '--json']);
  const ids = (JSON.parse(listed.out) as { runs: { runId: string }[] }).runs.map((r) => r.runId);
  assert.equal(ids.length, count, listed.out + listed.err);
  // the app's own resume at its start fails without the model script: the runs stay interrupted
  renameSync(model, `${model}.away`);
  await b.start();
  const said = () => ids.every((id) => b.app().output().includes(`resumed ${id}: not resumed`));
  for (let i = 0; i < 600 && !said(); i++) await new Promise((r) => setTimeout(r, 100));
  assert.ok(said(), b.app().output());
  renameSync(`${model}.away`, model);
  return ids;
}
