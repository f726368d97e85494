#!/usr/bin/env node
// The `stagecraft` command (npx stagecraft …): runs the compiled JavaScript in dist/ (built by
// `postinstall`, rebuilt here when the sources changed since; see scripts/built.mjs).
import { importBuilt } from '../scripts/built.mjs';

const { main } = await importBuilt('cli');
const code = await main(process.argv.slice(2));
// the embedded database and the Wasm migration engine may leave timers behind: exit explicitly
process.exit(code);
