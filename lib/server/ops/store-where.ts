// The store the app uses, in words for a message: the embedded store's data directory
// (STAGECRAFT_DATA_DIR, default ./.stagecraft), or DATABASE_URL's database and server — never its
// user or password.
import { dataDirOf } from '../host';

/** the store the app uses, in words: `the Postgres database "db" on host:port` or the embedded store's directory */
export function storeWhere(env: Record<string, string | undefined>, cwd: string): { where: string; isEmbedded: boolean } {
  if (!env.DATABASE_URL) return { where: `the embedded store in ${dataDirOf(env, cwd)}`, isEmbedded: true };
  try {
    const u = new URL(env.DATABASE_URL);
    const db = decodeURIComponent(u.pathname.replace(/^\//, '')) || 'postgres';
    return { where: `the Postgres database ${JSON.stringify(db)} on ${u.hostname}${u.port ? `:${u.port}` : ''}`, isEmbedded: false };
  } catch {
    return { where: 'the Postgres database of DATABASE_URL (which does not parse as a URL)', isEmbedded: false };
  }
}
