/**
 * For CLI tests: a `stagecraft run` of `bundle` (in `workspace`, a new folder) SIGKILLed once its step
 * wrote `napping` there — its run left recorded as running, nobody driving it.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { BIN, ROOT } from './spawn-cli';

export async function killedRun(bundle: string, workspace: string, env: NodeJS.ProcessEnv): Promise<void> {
  mkdirSync(workspace);
  const child = spawn(process.execPath, [BIN, 'run', bundle, '--workspace', workspace], { cwd: ROOT, env, stdio: 'ignore' });
  const poll = setInterval(() => {
    if (existsSync(path.join(workspace, 'napping'))) child.kill('SIGKILL');
  }, 50);
  await new Promise((resolve) => child.on('close', resolve));
  clearInterval(poll);
}
