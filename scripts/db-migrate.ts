#!/usr/bin/env -S node --import tsx
/**
 * Offline migrations on Prisma's Wasm schema engine (the Prisma 7 CLI cannot
 * migrate without downloading its native engine).
 *
 *   tsx scripts/db-migrate.ts create <name> [--empty]   write prisma/migrations/<ts>_<name>/migration.sql
 *                                                      from what schema.prisma adds (--empty: a blank
 *                                                      file for hand-written SQL: triggers, functions)
 *   tsx scripts/db-migrate.ts deploy                    apply pending migrations to DATABASE_URL, or to the
 *                                                      embedded store (STAGECRAFT_DATA_DIR / ./.stagecraft)
 *   tsx scripts/db-migrate.ts check                     exit 1 when schema.prisma and the migrations disagree
 *
 * Options: --schema FILE, --migrations DIR (default: prisma/schema.prisma, prisma/migrations).
 * Authoring and diffing run on a scratch in-memory PGlite; no database is needed.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createMigration, defaultMigrationPaths, diffHistoryToSchema } from '../lib/store/migrate/migrations';
import { openStore, redactUrl } from '../lib/store/open-store';

const USAGE = 'usage: db-migrate.ts create <name> [--empty] | deploy | check   [--schema FILE] [--migrations DIR]';

async function main(): Promise<number> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { empty: { type: 'boolean' }, schema: { type: 'string' }, migrations: { type: 'string' } },
  });
  const defaults = defaultMigrationPaths();
  const paths = {
    schemaPath: values.schema ? path.resolve(values.schema) : defaults.schemaPath,
    migrationsDir: values.migrations ? path.resolve(values.migrations) : defaults.migrationsDir,
  };
  const [command, name] = positionals;
  switch (command) {
    case 'create': {
      if (!name) {
        console.error(USAGE);
        return 2;
      }
      const created = await createMigration(name, { empty: values.empty }, paths);
      if (!created) console.log('(no changes: schema.prisma and the migrations agree)');
      else console.log(`wrote ${path.relative(process.cwd(), path.join(created.dir, 'migration.sql'))}`);
      return 0;
    }
    case 'deploy': {
      const store = await openStore({ migrationPaths: paths });
      try {
        const { applied } = store.migrations;
        const where = store.backend === 'postgres' ? redactUrl(process.env.DATABASE_URL ?? '') : store.location;
        console.log(applied.length ? `applied to ${where}: ${applied.join(', ')}` : `${where} is up to date`);
      } finally {
        await store.close();
      }
      return 0;
    }
    case 'check': {
      const sql = await diffHistoryToSchema(paths);
      if (!sql) {
        console.log('ok: schema.prisma and prisma/migrations agree');
        return 0;
      }
      console.error(
        'schema.prisma and the migrations disagree. A database built from the migrations would need:\n\n' +
          `${sql}\n\nRun \`npm run db:migrate:new <name>\` to write this as a migration (or undo the schema change).`,
      );
      return 1;
    }
    default:
      console.error(USAGE);
      return 2;
  }
}

// exit explicitly: the Wasm engine and PGlite can leave handles that would keep the process alive
main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e instanceof Error ? (e.stack ?? e.message) : e);
    process.exit(1);
  },
);
