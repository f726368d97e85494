import type { ReactNode } from 'react';
import { connection } from 'next/server';
import './globals.css';
import { AppHeader } from '@/components/shell/AppHeader';
import { QueryProvider } from '@/components/shell/QueryProvider';

export const metadata = { title: 'Stagecraft', description: 'Author LLM skills and see exactly what happened when one ran.' };

export default async function RootLayout({ children }: { children: ReactNode }) {
  // every page is rendered per request: its scripts carry that response's CSP nonce (proxy.ts), which a prerendered page could not
  await connection();
  // STAGECRAFT_CHECK_ANSWERS=1: the browser checks every API answer against its view in this build too (lib/client/api.ts)
  const checkAnswers = process.env.STAGECRAFT_CHECK_ANSWERS === '1' ? '1' : undefined;
  return (
    <html lang="en" data-check-answers={checkAnswers}>
      <body>
        <QueryProvider>
          <AppHeader />
          {children}
        </QueryProvider>
      </body>
    </html>
  );
}
