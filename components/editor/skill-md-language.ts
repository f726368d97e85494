// Highlighting for skill.md: YAML between the `---` fences, Markdown after the
// closing one. The model keeps the `yaml` language id (monaco-yaml's completion
// and hover attach to it), so this tokenizer replaces the built-in YAML one: a
// YAML file that does not open with `---` is tokenized as plain YAML throughout.
import type * as Monaco from 'monaco-editor';
import { language as yaml } from 'monaco-editor/languages/definitions/yaml/yaml.js';

type Rule = unknown[] | { include: string };
type Lang = { tokenizer: Record<string, Rule[]> } & Record<string, unknown>;

/**
 * The built-in YAML states, with the one `@popall` (the end of a block scalar) made a `@pop`, so a
 * block scalar inside the frontmatter returns to the frontmatter state, not to the start.
 */
function yamlStates(): Record<string, Rule[]> {
  const states = structuredClone((yaml as unknown as Lang).tokenizer);
  const swap = (rule: unknown): unknown => {
    if (rule instanceof RegExp) return rule;
    if (Array.isArray(rule)) return rule.map(swap);
    if (rule && typeof rule === 'object') {
      const o = rule as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(o)) out[k] = k === 'next' && v === '@popall' ? '@pop' : swap(v);
      return out;
    }
    return rule;
  };
  // a block scalar's first line replaces the blockStyle state, so one @pop returns past both
  states.multiString = [[/^( +).+$/, { token: 'string', switchTo: '@multiStringContinued.$1' }]];
  states.multiStringContinued = swap(states.multiStringContinued) as Rule[];
  return states;
}

export function registerSkillMdTokens(monaco: typeof Monaco): void {
  const states = yamlStates();
  const fence = /^---\s*$/;
  const lang = {
    ...(yaml as unknown as Lang),
    tokenizer: {
      ...states,
      root: [[fence, { token: 'operators.directivesEnd', next: '@frontmatter' }], ...states.root],
      frontmatter: [[fence, { token: 'operators.directivesEnd', next: '@body', nextEmbedded: 'markdown' }], ...states.root],
      // never left (Monarch wants a way out; this one never matches): Markdown takes the rest of the file
      body: [[/\uFFFF\uFFFE/, { token: '', next: '@pop', nextEmbedded: '@pop' }]],
    },
  };
  monaco.languages.setMonarchTokensProvider('yaml', lang as unknown as Monaco.languages.IMonarchLanguage);
}
