/**
 * What opening a store says when it cannot: StoreUnavailableError with what happened and what to do
 * (open-postgres.ts, open-embedded.ts).
 */
import path from 'node:path';
import { StoreUnavailableError } from '../kernel/errors';
import { NewerDatabaseError } from './migrate/newer-database';

/** `embeddedDir`: where the embedded store would be without DATABASE_URL (STAGECRAFT_DATA_DIR, default ./.stagecraft) */
export function unreachable(where: string, e: unknown, embeddedDir = path.resolve(/*turbopackIgnore: true*/ process.env.STAGECRAFT_DATA_DIR || '.stagecraft')): StoreUnavailableError {
  const err = e as NodeJS.ErrnoException & { code?: string };
  const why = err?.code ? `${err.code}: ${err.message}` : String((e as Error)?.message ?? e);
  return new StoreUnavailableError(
    'store_unreachable',
    `Cannot open the Postgres store at ${where} (${why}). Check that the server is running and DATABASE_URL ` +
      `is right, or unset DATABASE_URL to use the embedded store in ${embeddedDir}.${err?.code === '3D000' ? createIt(where) : ''}`,
    { url: where },
  );
}

/**
 * The one case of those where the server is running and the URL right (3D000, a database not created
 * yet: a fresh CI service container): the command that creates it, from the URL's parts.
 */
function createIt(where: string): string {
  let u: URL;
  try {
    u = new URL(where);
  } catch {
    return '';
  }
  const name = decodeURIComponent(u.pathname.slice(1));
  if (!name) return '';
  const shell = (s: string) => (/^[\w.-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
  const flags = [u.hostname && `-h ${shell(u.hostname.replace(/^\[|\]$/g, ''))}`, u.port && `-p ${u.port}`, u.username && `-U ${shell(decodeURIComponent(u.username))}`].filter(Boolean);
  return ` The server answered, and has no database ${name}: create it (\`${['createdb', ...flags, shell(name)].join(' ')}\`), and Stagecraft makes its tables in it on first use.`;
}

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ETIMEDOUT', 'ECONNRESET', '3D000', '28P01', '28000']);

export function isConnectionError(e: unknown): boolean {
  const code = (e as { code?: unknown })?.code;
  if (typeof code === 'string' && CONNECTION_CODES.has(code)) return true;
  const inner = (e as { errors?: unknown[] })?.errors; // AggregateError of each address tried
  return Array.isArray(inner) && inner.some(isConnectionError);
}

export function migrationFailed(where: string, e: unknown): StoreUnavailableError {
  if (e instanceof NewerDatabaseError) return newerDatabase(where, e);
  return new StoreUnavailableError(
    'store_migration_failed',
    `Applying the database migrations to ${where} failed: ${(e as Error)?.message ?? e}. ` +
      'Run `npm run db:migrate` to see the full error; the migrations in prisma/migrations must apply cleanly.',
    { location: where },
  );
}

/** a database a newer Stagecraft migrated: not opened, rather than misread or damaged by this version */
function newerDatabase(where: string, e: NewerDatabaseError): StoreUnavailableError {
  const embedded = !/^postgres(ql)?:/.test(where);
  return new StoreUnavailableError(
    'store_newer_than_stagecraft',
    `The store at ${where} was written by a newer version of Stagecraft: it has migrations this version does not know ` +
      `(${e.unknown.join(', ')}), and this version could misread or damage what the newer one wrote, so it was not opened. ` +
      `Upgrade Stagecraft (update this checkout and run \`npm install\`), or ${embedded ? 'set STAGECRAFT_DATA_DIR to another directory' : 'point DATABASE_URL at another database'}.`,
    { location: where, unknownMigrations: e.unknown },
  );
}

/** The URL without its password, for messages. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(an unparsable DATABASE_URL)';
  }
}
