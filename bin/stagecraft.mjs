#!/usr/bin/env node
// The `stagecraft` command (npx stagecraft …). TypeScript sources run through tsx.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../cli/main.ts');
const code = await main(process.argv.slice(2));
// the embedded database and the Wasm migration engine may leave timers behind: exit explicitly
process.exit(code);
