/** The CLI run as shipped, with every module URL the process resolves recorded by a loader hook. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli, type CliResult } from './spawn-cli';

/** the command's exit code, output, and every module URL it resolved */
export async function tracedCli(argv: string[], env: NodeJS.ProcessEnv): Promise<CliResult & { modules: string[] }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'sc-lazy-'));
  try {
    const loads = path.join(dir, 'loads.txt');
    writeFileSync(loads, '');
    const hooks = `import{appendFileSync}from'node:fs';export async function resolve(s,c,n){const r=await n(s,c);appendFileSync(${JSON.stringify(loads)},r.url+'\\n');return r}`;
    const register = path.join(dir, 'register.mjs');
    writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});\n`);
    const r = await runCli(argv, { env, nodeArgs: ['--import', register] });
    return { ...r, modules: readFileSync(loads, 'utf8').split('\n').filter(Boolean) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
