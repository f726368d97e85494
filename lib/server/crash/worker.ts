/**
 * Child process of the crash tests: `start <runId>` runs the crash probe (and
 * may be SIGKILLed at any moment, or kill itself at STAGECRAFT_FAULT), and
 * `resume <runId>` resumes it (when it is still running). Prints one JSON line
 * when it gets to the end, with the run's events before and after the resume.
 * The store comes from DATABASE_URL / STAGECRAFT_DATA_DIR like the CLI's.
 */
import { openStore } from '../../store';
import { startSkillRun } from '../runs/start-run';
import { resumeSkillRun } from '../runs/resume-run';
import { hostFor } from '../host';

const [cmd, runId, bundle] = process.argv.slice(2);
const store = await openStore({});
const host = hostFor({ store, skills: store.skills, env: process.env, cwd: process.cwd() });
// with the embedded store only one process may open it, so the worker also reports what it saw
const run = cmd === 'start' ? null : await store.getRun(runId);
const before = run ? await store.readEvents(runId) : [];
const out =
  cmd === 'start'
    ? await startSkillRun(host, { bundle, input: {}, runId })
    : run?.status === 'running'
      ? await resumeSkillRun(host, runId)
      : { status: run?.status ?? 'missing', output: run?.output ?? null, error: run?.error ?? null };
const after = cmd === 'start' ? [] : await store.readEvents(runId).catch(() => []);
process.stdout.write(JSON.stringify({ status: out.status, output: out.output, error: out.error, resumed: run?.status === 'running', before, after }) + '\n');
await store.close();
process.exit(0);
