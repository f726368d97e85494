#!/usr/bin/env node
// Launcher for bench-store.ts as a plain node script (the peers' crash
// orchestrator spawns `node <script> --role worker|resume …`).
import { register } from 'tsx/esm/api';

register();
await import('./bench-store.ts');
