/** the compare view of two runs: `a` on the left (the earlier, or the parent), `b` on the right */
export const compareHref = (a: string, b: string) => `/runs/compare?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}`;
