/** What `npm start` (scripts/start.mjs) checks before it starts the app, compiled into dist/ with the CLI. */
export { listenProblem, securitySettings, isLoopback } from '../lib/server/http/security';
export { isolationFor, sandboxMode, unsandboxedListenProblem } from '../lib/sandbox/isolation';
export { appSettingsProblems } from '../lib/server/run-settings';
export { portProblem } from '../lib/server/http/listen-port';
