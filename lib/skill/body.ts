/**
 * The Markdown body of skill.md: text before the first `## <phase>` heading is
 * the shared system prompt; each `## <phase>` heading (its text exactly a
 * phase name) opens that phase's prompt, which runs to the next such heading.
 *
 * Owns: cutting the body into those sections (ATX `##` headings only, never
 * inside fenced code blocks), and the body's findings: a `## Heading` close
 * to a phase name but not one ("did you mean"), and a phase with two
 * sections. Any other heading is ordinary Markdown inside the current
 * section. Does not: render or interpret Markdown.
 */
import type { Findings } from './rules';
import { didYouMean } from './suggest';

export type BodySections = {
  /** text before the first phase heading, trimmed */
  system: string;
  /** phase → its section text, trimmed (phases without a section are absent) */
  prompts: Record<string, string>;
};

const HEADING = /^( {0,3})##[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Splits the body into sections. `bodyLine` is the whole-file line of the
 * body's first line, for locating findings; `headings`, when given, receives
 * the text of every `##` heading (phase or not), in order.
 */
export function readBody(body: string, bodyLine: number, phases: readonly string[], findings?: Findings, headings?: string[]): BodySections {
  const known = new Set(phases);
  const lines = body.replace(/\r\n?/g, '\n').split('\n');
  const system: string[] = [];
  const sections = new Map<string, string[]>();
  let current = system;
  let fence: string | null = null;
  lines.forEach((line, i) => {
    const f = FENCE.exec(line);
    if (fence !== null) {
      if (f && f[1][0] === fence[0] && f[1].length >= fence.length && line.trim() === f[1]) fence = null;
      current.push(line);
      return;
    }
    if (f) {
      fence = f[1];
      current.push(line);
      return;
    }
    const h = HEADING.exec(line);
    if (!h) {
      current.push(line);
      return;
    }
    const text = h[2].trim();
    headings?.push(text);
    const column = line.indexOf(text, h[1].length + 2) + 1;
    const span = { line: bodyLine + i, column, endLine: bodyLine + i, endColumn: column + text.length };
    if (known.has(text)) {
      if (sections.has(text)) {
        findings?.addAt(
          'duplicate_phase_heading',
          `Phase \`${text}\` already has a \`## ${text}\` section above: this one is appended to it. Merge the two sections.`,
          span,
        );
        current = sections.get(text) as string[];
        current.push('');
      } else {
        current = [];
        sections.set(text, current);
      }
      return;
    }
    const s = text ? didYouMean(text, phases) : undefined;
    if (s !== undefined) {
      findings?.addAt(
        'heading_not_phase',
        `\`## ${text}\` is not a phase, so this section stays part of the ${current === system ? 'shared system prompt' : 'previous phase\'s prompt'}` +
          ` — did you mean \`## ${s}\`? Phase headings must match the phase name exactly.`,
        span,
      );
    }
    current.push(line);
  });
  // fromEntries makes own keys even of odd names (`__proto__`), where assignment would not
  const prompts = Object.fromEntries([...sections].map(([phase, text]) => [phase, text.join('\n').trim()]));
  return { system: system.join('\n').trim(), prompts };
}
