'use client';
// "3 min ago" that stays true while the page is open. The first render uses the
// server's clock (`now`), so the hydrated text matches the server's HTML; after
// that the browser's clock takes over and the tooltip shows local time.
import { useEffect, useState } from 'react';
import { exactTime, relativeTime, utcTime } from '@/components/common/format';

const TICK_MS = 20_000;

export function RelativeTime({ ms, now, className }: { ms: number; now: number; className?: string }) {
  const [clientNow, setClientNow] = useState<number | null>(null);
  useEffect(() => {
    const tick = () => setClientNow(Date.now());
    tick();
    const timer = setInterval(tick, TICK_MS);
    return () => clearInterval(timer);
  }, []);
  return (
    <time className={className} dateTime={new Date(ms).toISOString()} title={clientNow === null ? utcTime(ms) : exactTime(ms)}>
      {relativeTime(ms, Math.max(clientNow ?? now, now))}
    </time>
  );
}
