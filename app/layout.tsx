import type { ReactNode } from 'react';
import './globals.css';
import { AppHeader } from '@/components/shell/AppHeader';

export const metadata = { title: 'Stagecraft', description: 'Author LLM skills and see exactly what happened when one ran.' };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <AppHeader />
        {children}
      </body>
    </html>
  );
}
