import type { ReactNode } from 'react';
import { connection } from 'next/server';
import './globals.css';
import { AppHeader } from '@/components/shell/AppHeader';
import { StoreUnreachable } from '@/components/shell/StoreUnreachable';
import { storeStatus } from '@/lib/server/ops/store-status';

export const metadata = { title: 'Stagecraft', description: 'Author LLM skills and see exactly what happened when one ran.' };

export default async function RootLayout({ children }: { children: ReactNode }) {
  // every page needs the store, and says so while it cannot be reached (rendered per request: never at build time)
  await connection();
  const store = await storeStatus();
  return (
    <html lang="en">
      <body>
        <AppHeader />
        {store.reachable ? children : <StoreUnreachable reason={store.reason} />}
      </body>
    </html>
  );
}
