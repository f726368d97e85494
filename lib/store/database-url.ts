/**
 * DATABASE_URL's shape, checked before any connection is tried: a value that is no URL, or a URL of
 * another scheme, was tried as a host name ("getaddrinfo ENOTFOUND base" for `notaurl`), and said as a
 * server that does not answer. The value is never repeated (it can hold a password); its scheme is.
 *
 * Owns: the check and its words. Does not: connect, or say a server that does not answer (open-errors.ts).
 */
import { SettingsError } from '../kernel/errors';

/** what a Postgres URL looks like, as the error says it */
const SHAPE = 'postgresql://USER[:PASSWORD]@HOST[:PORT]/DATABASE';

/** What is wrong with `url` as DATABASE_URL, or null when it is a Postgres URL; `embeddedDir`: where the store would be without it. */
export function databaseUrlProblem(url: string, embeddedDir?: string): string | null {
  const unset = `or unset DATABASE_URL to use the embedded store${embeddedDir ? ` in ${embeddedDir}` : ''}`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `DATABASE_URL is not a URL: give a Postgres URL (${SHAPE}), ${unset}.`;
  }
  if (parsed.protocol !== 'postgresql:' && parsed.protocol !== 'postgres:') {
    return `DATABASE_URL is not a Postgres URL (its scheme is ${parsed.protocol}): give ${SHAPE}, ${unset}.`;
  }
  return null;
}

/** Throws the SettingsError of a DATABASE_URL that is not a Postgres URL (databaseUrlProblem). */
export function checkDatabaseUrl(url: string, embeddedDir?: string): void {
  const problem = databaseUrlProblem(url, embeddedDir);
  if (problem) throw new SettingsError(problem);
}
