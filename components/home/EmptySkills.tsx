// What a new user sees before there is any skill: the two ways to make one.
import Link from 'next/link';
import styles from './Home.module.css';

export function EmptySkills({ exampleCount }: { exampleCount: number }) {
  return (
    <section className={styles.empty} aria-labelledby="empty-skills-title">
      <svg width="40" height="40" viewBox="0 0 32 32" aria-hidden="true" className={styles.emptyIcon}>
        <rect x="1" y="1" width="30" height="30" rx="7" fill="var(--accent-soft)" stroke="var(--accent)" strokeOpacity="0.35" />
        <path d="M9 21h14M9 16h10M9 11h6" stroke="var(--accent)" strokeWidth="2.4" strokeLinecap="round" />
      </svg>
      <h2 id="empty-skills-title">No skills yet</h2>
      <p>
        A skill is a <code>skill.md</code> bundle: a graph of model phases, their prompts, and the steps that check what they produce. Make your first one in
        either of two ways:
      </p>
      <ol className={styles.emptySteps}>
        <li>
          Press <strong>New skill</strong> above. The blank template runs offline at once
          {exampleCount ? `, or start from one of the ${exampleCount} examples` : ''}.
        </li>
        <li>
          Push a folder that holds a <code>skill.md</code> from your terminal: <code className={styles.command}>npx stagecraft push DIR</code>
        </li>
      </ol>
      <p className={styles.emptyMore}>
        New to the format? Read the <Link href="/docs/skill-md">skill.md reference</Link>.
      </p>
    </section>
  );
}
