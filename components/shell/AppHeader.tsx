// The bar on every page: the product, and where to go.
import Link from 'next/link';
import styles from './AppHeader.module.css';

export function AppHeader() {
  return (
    <header className={styles.header}>
      <Link href="/" className={styles.brand} aria-label="Stagecraft home">
        <svg width="20" height="20" viewBox="0 0 32 32" aria-hidden="true">
          <rect width="32" height="32" rx="6" fill="#1f2937" />
          <path d="M8 22h16M8 16h12M8 10h8" stroke="#fbbf24" strokeWidth="3" strokeLinecap="round" />
        </svg>
        Stagecraft
      </Link>
      <nav aria-label="Main" className={styles.nav}>
        <Link href="/">Skills</Link>
        <Link href="/runs">Runs</Link>
        <Link href="/docs/skill-md">skill.md reference</Link>
      </nav>
    </header>
  );
}
