// Prints what a code step costs in the sandbox: cold first call and warm per-call average.
//   npx tsx scripts/bench-sandbox.ts [CALLS]
import { benchCodeSteps } from '../lib/sandbox/bench';

const calls = Number(process.argv[2] ?? 500);
const r = await benchCodeSteps({ calls });
console.log(`code steps (${calls} warm calls each)`);
console.log(`  python  cold ${r.pythonColdMs.toFixed(1)} ms   warm ${r.pythonMsPerCall.toFixed(3)} ms/call`);
console.log(`  node    cold ${r.nodeColdMs.toFixed(1)} ms   warm ${r.nodeMsPerCall.toFixed(3)} ms/call`);
