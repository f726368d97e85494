/**
 * docs/skill-md.md as HTML, with every heading given the id GitHub would give
 * it (so links written for GitHub — `#graph`, `#phases-tools` via the doc's own
 * `<a id>` tags — land here too) and the h2 headings collected for a table of
 * contents. The doc is our own text, so its inline HTML is kept as written.
 */
import { Marked, type Tokens } from 'marked';

/** a `##` section, with its `###` subsections (`graph`, `phases`, … under Frontmatter keys) */
export type TocEntry = { id: string; text: string; children: TocEntry[] };

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

/** the text a reader sees in rendered inline HTML */
function plainText(html: string): string {
  return html.replace(/<[^>]*>/g, '').replace(/&(amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e] ?? e);
}

/**
 * GitHub's heading slugs (github-slugger): lowercase, drop punctuation except
 * `-` and `_`, each space becomes `-`; a repeat gets `-1`, `-2`, ….
 */
export function headingSlugger(): (text: string) => string {
  const occurrences = new Map<string, number>();
  return (text) => {
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    let slug = base;
    while (occurrences.has(slug)) {
      const n = (occurrences.get(base) ?? 0) + 1;
      occurrences.set(base, n);
      slug = `${base}-${n}`;
    }
    occurrences.set(slug, 0);
    return slug;
  };
}

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

export function renderDoc(markdown: string): { html: string; toc: TocEntry[] } {
  const toc: TocEntry[] = [];
  const slug = headingSlugger();
  const marked = new Marked({ gfm: true });
  marked.use({
    renderer: {
      heading(this: { parser: { parseInline(tokens: Tokens.Generic[]): string } }, { tokens, depth }: Tokens.Heading) {
        const inner = this.parser.parseInline(tokens);
        const text = plainText(inner);
        const id = slug(text);
        if (depth === 2) toc.push({ id, text, children: [] });
        else if (depth === 3 && toc.length) toc[toc.length - 1].children.push({ id, text, children: [] });
        return `<h${depth} id="${escapeAttr(id)}">${inner}</h${depth}>\n`;
      },
    },
  });
  const html = (marked.parse(markdown, { async: false }) as string)
    // an anchor tag alone on its line becomes an empty paragraph: keep the anchor, drop the gap
    .replace(/<p>(<a id="[^"]*"><\/a>)<\/p>\n?/g, '$1');
  return { html, toc };
}
