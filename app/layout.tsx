import type { ReactNode } from 'react';
import { connection } from 'next/server';
import './globals.css';
import { AppHeader } from '@/components/shell/AppHeader';

export const metadata = { title: 'Stagecraft', description: 'Author LLM skills and see exactly what happened when one ran.' };

export default async function RootLayout({ children }: { children: ReactNode }) {
  // every page is rendered per request: its scripts carry that response's CSP nonce (proxy.ts), which a prerendered page could not
  await connection();
  return (
    <html lang="en">
      <body>
        <AppHeader />
        {children}
      </body>
    </html>
  );
}
