'use client';
// Whether this page has been hydrated: false while React renders the server's HTML (and while it
// hydrates it), true in the browser from then on. A control whose click does something only through
// a React handler is drawn disabled until then: a click on the server's HTML reaches no handler and is
// lost (the run page's Abort looked pressed and the run ran on), where a disabled control looks grey
// until it works, and Playwright's click waits for it. A control that works without a script (a link,
// a GET form's submit) is left as it is. Nothing to subscribe to: no effect, no second render after a
// client-side navigation (its snapshot is already true).
import { useSyncExternalStore } from 'react';

const noChange = () => () => {};
const inBrowser = () => true;
const onServer = () => false;

/** false in the server's HTML and while it is hydrated; true in the browser after */
export function useHydrated(): boolean {
  return useSyncExternalStore(noChange, inBrowser, onServer);
}
