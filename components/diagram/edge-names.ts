// An edge of the studio's diagram, named for a screen reader in the words its cards are named in
// (lib/skill/diagram.ts): a phase `phase X`, a postprocessor step `step N`, the contract `caller
// contract` — never a node's id (`post:0`, `contract`).

/** a node's id as the user's words: `phase:draft` → `phase draft`, `post:0` → `step 0`, `contract` → `caller contract` */
export function nodeWords(id: string): string {
  if (id === 'contract') return 'caller contract';
  if (id.startsWith('phase:')) return `phase ${id.slice('phase:'.length)}`;
  if (id.startsWith('post:')) return `step ${id.slice('post:'.length)}`;
  return id;
}

/** `from phase summarize to step 0`, `from step 0 to caller contract` */
export function edgeName(source: string, target: string): string {
  return `from ${nodeWords(source)} to ${nodeWords(target)}`;
}
