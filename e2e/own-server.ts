// A Stagecraft of a spec's own (e2e/serve.mjs on another port, with its own settings: a token, a
// model endpoint), beside the suite's server, started and waited for until `ready` answers.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

/** a port nothing listens on now, as the system hands one out */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** serve.mjs on `port` with `env` added, once `${base}${ready}` answers ok (within `waitMs`) */
export async function ownServer(port: number, env: Record<string, string>, { ready = '/api/skills', waitMs = 170_000 } = {}): Promise<ChildProcess> {
  const server = spawn(process.execPath, ['e2e/serve.mjs', String(port)], { stdio: 'ignore', env: { ...process.env, ...env } });
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}${ready}`)).ok) return server;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) {
      server.kill('SIGTERM');
      throw new Error(`the server of this spec on ${port} did not start`);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}
