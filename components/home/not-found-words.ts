// What the not-found page says (NotFoundPage.tsx): under /runs/<id> and /skills/<name>, what was looked for.

export type NotFoundKind = 'page' | 'run' | 'skill';

/** what the page says: the text under its heading and which list it offers first */
export function notFoundWords(kind: NotFoundKind, pathname: string | null): { text: string; first: 'skills' | 'runs' } {
  const last = pathname?.split('/').filter(Boolean).pop();
  let what = '';
  try {
    what = last ? decodeURIComponent(last) : '';
  } catch {
    what = last ?? '';
  }
  if (kind === 'run' && what) return { text: `There is no run ${what}. It may have been deleted, or the id is mistyped.`, first: 'runs' };
  if (kind === 'skill' && what) return { text: `There is no skill ${what}. It may have been renamed or deleted, or the name is mistyped.`, first: 'skills' };
  return { text: 'There is no page at this address. The skill or run it pointed to may have been renamed or deleted, or the link is mistyped.', first: 'skills' };
}
