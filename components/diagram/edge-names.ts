// An edge of the studio's diagram, named for a screen reader in the words its cards are named in
// (lib/skill/node-names.ts, as diagram.ts labels them): a phase `phase X`, a postprocessor step
// `step N`, the contract `caller contract` — never a node's id (`post:0`, `contract`).
import { nodeWords } from '@/lib/skill/node-names';

/** `from phase summarize to step 0`, `from step 0 to caller contract` */
export function edgeName(source: string, target: string): string {
  return `from ${nodeWords(source)} to ${nodeWords(target)}`;
}
