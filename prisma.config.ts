/**
 * Prisma CLI configuration (Prisma 7 keeps the datasource URL here, not in the schema).
 *
 * Owns: where the schema and the migration history live. Does not: apply
 * migrations (the CLI cannot offline: scripts/db-migrate.ts drives the Wasm
 * schema engine, and lib/store/open-store.ts applies them on open).
 */
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  // not env('DATABASE_URL'): that throws when the variable is unset, even for `generate`
  datasource: { url: process.env.DATABASE_URL ?? '' },
});
