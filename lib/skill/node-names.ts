/**
 * The words a node or step of the skill's diagram is named in, from its id: `phase:draft` → `phase
 * draft`, `pre:draft:0` → `draft preprocessor #0`, `post:0` (nested `post:0/1`) → `step 0`,
 * `contract` → `caller contract`. Each card's label begins with them (diagram.ts adds what only the
 * card says: a step's type, the entry phase's ` (entry)`, ` invalid`), and an edge names its ends
 * in them (components/diagram/edge-names.ts) — one source, so the two cannot drift apart.
 *
 * Does not: name stages (`cap:<i>`: named for their capability, not their id) or mint ids
 * (diagram.ts owns them). An id it does not know is its own name.
 */

/** a node's id as the user's words: `phase:draft` → `phase draft`, `post:0` → `step 0`, `contract` → `caller contract` */
export function nodeWords(id: string): string {
  if (id === 'contract') return 'caller contract';
  if (id.startsWith('phase:')) return `phase ${id.slice('phase:'.length)}`;
  if (id.startsWith('post:')) return `step ${id.slice('post:'.length)}`;
  // a preprocessor step is not `step <n>`: a test or a screen reader asking for `step 0 python` means the postprocessor's
  if (id.startsWith('pre:')) {
    // `pre:<phase>:<number>`: a phase's name may hold a colon, a step's number never does
    const at = id.lastIndexOf(':');
    if (at > 'pre:'.length - 1) return `${id.slice('pre:'.length, at)} preprocessor #${id.slice(at + 1)}`;
  }
  return id;
}
