/**
 * Child process of the crash tests: `start <runId>` runs the crash probe (and
 * may be SIGKILLed at any moment, or kill itself at STAGECRAFT_FAULT), and
 * `resume <runId>` resumes it. Prints one JSON line when it gets to the end.
 * The store comes from DATABASE_URL / STAGECRAFT_DATA_DIR like the CLI's.
 */
import { openStore } from '../../store';
import { startSkillRun } from '../runs/start-run';
import { resumeSkillRun } from '../runs/resume-run';

const [cmd, runId, bundle] = process.argv.slice(2);
const store = await openStore({});
const host = { store, env: process.env, cwd: process.cwd() };
const out =
  cmd === 'start'
    ? await startSkillRun(host, { bundle, input: {}, runId })
    : await resumeSkillRun(host, runId);
process.stdout.write(JSON.stringify({ status: out.status, output: out.output, error: out.error }) + '\n');
await store.close();
process.exit(0);
