// A page that reads the store, while the store may be down. Next renders a page beside the root
// layout even when the layout shows StoreUnreachable in its place (app/layout.tsx), and logged what
// the page threw whole: a stack trace on the server's stderr for every page asked while the store
// could not be opened or reached. `storePage` catches that error: the server's log says it in one line
// (lib/server/ops/store-status.ts pageStoreDown), and the page is the layout's error state — the same
// panel, should the store go away between the layout's check and the page's reads. Any other error
// (notFound() among them) goes on as before. `route` (the page's route, `/runs/[id]`) names the page
// in that line, its params filled in (`/runs/run_x`).
import type { ReactNode } from 'react';
import { StoreUnreachable } from '@/components/shell/StoreUnreachable';
import { pageStoreDown } from '@/lib/server/ops/store-status';

export function storePage<P>(route: string, Page: (props: P) => Promise<ReactNode>): (props: P) => Promise<ReactNode> {
  return async function StorePage(props: P) {
    try {
      return await Page(props);
    } catch (e) {
      const down = pageStoreDown(e, await pagePath(route, props));
      if (!down) throw e;
      return <StoreUnreachable reason={down.reason} where={down.where} isEmbedded={down.isEmbedded} />;
    }
  };
}

/** `route` with its `[param]`s filled in from the page's params (left as they are where there are none) */
async function pagePath(route: string, props: unknown): Promise<string> {
  const params = await (props as { params?: Promise<Record<string, string>> } | undefined)?.params?.catch(() => undefined);
  return route.replace(/\[(\w+)\]/g, (whole, name: string) => (typeof params?.[name] === 'string' ? encodeURIComponent(params[name]) : whole));
}
