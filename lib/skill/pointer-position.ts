// Where in a JSON text the value a JSON pointer names begins, as a 1-based line and column: how a
// contract error on a run input (or a value edited at a fork point) is located in the text typed —
// by the studio's input editor and by `stagecraft run --input FILE` alike. YAML's parser reads JSON
// with source ranges, so no second parser is needed. Browser-safe (no node:*).
import { LineCounter, isMap, isSeq, parseDocument, type Node as YamlNode } from 'yaml';

/** the value at `pointer` (`/a/0/b`), else the deepest one on its way that exists (the document when none) */
export function locatePointer(text: string, pointer: string): { line: number; column: number } {
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc });
  let node: unknown = doc.contents;
  for (const raw of pointer.split('/').slice(1)) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (isMap(node)) {
      const pair = node.items.find((p) => String((p.key as { value?: unknown })?.value ?? p.key) === seg);
      if (!pair) break;
      node = pair.value;
    } else if (isSeq(node)) node = node.items[Number(seg)];
    else break;
  }
  const range = (node as YamlNode | null)?.range ?? (doc.contents as YamlNode | null)?.range;
  const at = lc.linePos(range ? range[0] : 0);
  return { line: at.line, column: at.col };
}
