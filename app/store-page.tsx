// A page that reads the store, while the store may be down. Next renders a page beside the root
// layout even when the layout shows StoreUnreachable in its place (app/layout.tsx), and logged what
// the page threw whole: a stack trace on the server's stderr for every page asked while the store
// could not be opened or reached. `storePage` catches that error: the server's log says it in one line
// (lib/server/ops/store-status.ts pageStoreDown), and the page is the layout's error state — the same
// panel, should the store go away between the layout's check and the page's reads. Any other error
// (notFound() among them) goes on as before.
import type { ReactNode } from 'react';
import { StoreUnreachable } from '@/components/shell/StoreUnreachable';
import { pageStoreDown } from '@/lib/server/ops/store-status';

export function storePage<P>(Page: (props: P) => Promise<ReactNode>): (props: P) => Promise<ReactNode> {
  return async function StorePage(props: P) {
    try {
      return await Page(props);
    } catch (e) {
      const down = pageStoreDown(e);
      if (!down) throw e;
      return <StoreUnreachable reason={down.reason} where={down.where} isEmbedded={down.isEmbedded} />;
    }
  };
}
