// What changed between two versions of a bundle, file by file: added,
// removed and changed files, each changed one as unified-diff hunks.
import { structuredPatch } from 'diff';
import type { Files } from '@/lib/views';

export type Hunk = { header: string; lines: { kind: '+' | '-' | ' '; text: string }[] };
export type FileDiff = { path: string; change: 'added' | 'removed' | 'changed'; hunks: Hunk[]; added: number; removed: number };

const orderSkillMdFirst = (a: string, b: string) => (a === 'skill.md' ? -1 : b === 'skill.md' ? 1 : a < b ? -1 : a > b ? 1 : 0);

export function diffBundles(from: Files, to: Files): FileDiff[] {
  const paths = [...new Set([...Object.keys(from), ...Object.keys(to)])].sort(orderSkillMdFirst);
  const out: FileDiff[] = [];
  for (const path of paths) {
    const a = Object.prototype.hasOwnProperty.call(from, path) ? from[path] : null;
    const b = Object.prototype.hasOwnProperty.call(to, path) ? to[path] : null;
    if (a === b) continue;
    const patch = structuredPatch(path, path, a ?? '', b ?? '', '', '', { context: 3 });
    let added = 0;
    let removed = 0;
    const hunks: Hunk[] = patch.hunks.map((h) => ({
      header: `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`,
      lines: h.lines
        .filter((l) => !l.startsWith('\\'))
        .map((l) => {
          const kind = l[0] as '+' | '-' | ' ';
          if (kind === '+') added++;
          if (kind === '-') removed++;
          return { kind, text: l.slice(1) };
        }),
    }));
    out.push({ path, change: a === null ? 'added' : b === null ? 'removed' : 'changed', hunks, added, removed });
  }
  return out;
}
