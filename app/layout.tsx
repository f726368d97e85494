import type { ReactNode } from 'react';

export const metadata = { title: 'Stagecraft', description: 'Author LLM skills and see exactly what happened when one ran.' };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body style={{ fontFamily: 'system-ui, -apple-system, Segoe UI, sans-serif', margin: 0 }}>{children}</body>
    </html>
  );
}
