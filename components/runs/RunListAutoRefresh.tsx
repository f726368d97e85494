'use client';
// While any listed run is still running, re-read the list every few seconds so
// statuses move on their own; stops once nothing is running.
import { useRouter } from 'next/navigation';
import { useEffect } from 'react';
import styles from './RunList.module.css';

const REFRESH_MS = 2000;

export function RunListAutoRefresh({ isActive }: { isActive: boolean }) {
  const router = useRouter();
  useEffect(() => {
    if (!isActive) return;
    const timer = setInterval(() => router.refresh(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [isActive, router]);
  if (!isActive) return null;
  return (
    <span className={styles.live}>
      <span className={styles.liveDot} aria-hidden="true" />
      Updating live
    </span>
  );
}
