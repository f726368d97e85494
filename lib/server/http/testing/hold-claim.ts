/**
 * Child process of the abort tests: takes the claim of run `<runId>` on DATABASE_URL and holds it
 * without driving the run — a driver that hangs — printing `held` once it has it, until killed.
 */
import { openStore } from '../../../store';

const [runId] = process.argv.slice(2);
const store = await openStore({});
const claim = await store.claimRun(runId);
process.stdout.write(claim ? 'held\n' : 'not held\n');
setInterval(() => {}, 60_000);
