/**
 * What the skill pages need to read from (or change in) a skill.md without
 * validating it: its `name` and `description`, and the text with another
 * name — a rename or a copy keeps the frontmatter's name equal to the skill's.
 *
 * Owns: edits that leave every other byte of the text as it was. Does not:
 * validate (lib/skill) — an unparsable frontmatter just yields no facts.
 */
import { isScalar } from 'yaml';
import { parseFrontmatter, splitSkill } from '../../skill/source';

type Facts = { name: string | null; description: string };

function parsed(text: string) {
  const split = splitSkill(text);
  if ('rule' in split) return null;
  return { split, ...parseFrontmatter(split) };
}

export function skillMdFacts(text: string | undefined): Facts {
  const p = text === undefined ? null : parsed(text);
  if (!p || p.doc.errors.length) return { name: null, description: '' };
  const name = p.doc.get('name');
  const description = p.doc.get('description');
  return { name: typeof name === 'string' ? name : null, description: typeof description === 'string' ? description : '' };
}

/** The text with its frontmatter `name:` set to `name` (added after the opening `---` when absent); null when the frontmatter cannot be read. */
export function withSkillName(text: string, name: string): string | null {
  const p = parsed(text);
  if (!p || p.doc.errors.length) return null;
  const start = text.indexOf('\n') + 1; // the frontmatter starts on the line after `---`
  const pair = p.source.pairAt(['name']);
  const value = pair?.value;
  if (pair && isScalar(value) && value.range) {
    const [a, b] = value.range;
    return text.slice(0, start + a) + name + text.slice(start + b);
  }
  if (pair) return null; // a name that is not a plain value: leave the author's text alone
  return `${text.slice(0, start)}name: ${name}\n${text.slice(start)}`;
}
