import type { ReactNode } from 'react';
import { connection } from 'next/server';
import { headers } from 'next/headers';
import './globals.css';
import { AppHeader } from '@/components/shell/AppHeader';
import { StoreUnreachable } from '@/components/shell/StoreUnreachable';
import { storeStatus } from '@/lib/server/ops/store-status';
import { pageStoreStatus } from '@/lib/server/ops/store-status-registry';
import { QueryProvider } from '@/components/shell/QueryProvider';

export const metadata = { title: 'Stagecraft', description: 'Author LLM skills and see exactly what happened when one ran.' };

export default async function RootLayout({ children }: { children: ReactNode }) {
  // every page is rendered per request: its scripts carry that response's CSP nonce (proxy.ts), which a
  // prerendered page could not; and every page needs the store, and says so while it cannot be reached
  await connection();
  // the proxy asked the store for this request already (proxy.ts): its answer, else asked here
  const store = await pageStoreStatus(await headers(), storeStatus);
  // STAGECRAFT_CHECK_ANSWERS=1: the browser checks every API answer against its view in this build too (lib/client/api.ts)
  const checkAnswers = process.env.STAGECRAFT_CHECK_ANSWERS === '1' ? '1' : undefined;
  return (
    <html lang="en" data-check-answers={checkAnswers}>
      <body>
        <QueryProvider>
          <AppHeader />
          {store.reachable ? children : <StoreUnreachable reason={store.reason} where={store.where} isEmbedded={store.isEmbedded} />}
        </QueryProvider>
      </body>
    </html>
  );
}
