// `node --import tsx --import ./lib/sandbox/testing/with-spawner.ts --test FILE`: runs a test file with
// this process's spawner started first (as the app's boot does), so its sandboxes launch workers
// through it — the sandbox and escape suites, unchanged, against the app's way of spawning.
import { startSpawner } from '../spawner';

await startSpawner();
