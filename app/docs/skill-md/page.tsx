// The skill.md reference: docs/skill-md.md, rendered, with a table of contents of its sections and
// their subsections (each frontmatter key, each step type), so a key is one click from the top.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { renderDoc } from './render-doc';
import styles from './docs.module.css';

export const metadata = { title: 'skill.md reference · Stagecraft' };

export default function SkillMdReferencePage() {
  const { html, toc } = renderDoc(readFileSync(path.join(process.cwd(), 'docs', 'skill-md.md'), 'utf8'));
  return (
    <div className={styles.layout}>
      <nav className={styles.toc} aria-label="On this page">
        <p className={styles.tocTitle}>On this page</p>
        <ol>
          {toc.map((t) => (
            <li key={t.id}>
              <a href={`#${t.id}`}>{t.text}</a>
              {t.children.length ? (
                <ol className={styles.tocSub}>
                  {t.children.map((c) => (
                    <li key={c.id}>
                      <a href={`#${c.id}`}>{c.text}</a>
                    </li>
                  ))}
                </ol>
              ) : null}
            </li>
          ))}
        </ol>
      </nav>
      {/* our own reference text (docs/skill-md.md), not user input */}
      <main className={styles.doc} dangerouslySetInnerHTML={{ __html: html }} />
    </div>
  );
}
