// The skill.md reference: docs/skill-md.md, rendered, with a table of contents.
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
            </li>
          ))}
        </ol>
      </nav>
      {/* our own reference text (docs/skill-md.md), not user input */}
      <main className={styles.doc} dangerouslySetInnerHTML={{ __html: html }} />
    </div>
  );
}
