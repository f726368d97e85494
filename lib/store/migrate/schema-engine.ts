/**
 * Prisma's schema engine, compiled to Wasm, driven through a driver adapter:
 * what stands in for the native `schema-engine` binary, which the Prisma 7 CLI
 * would download and cannot offline.
 *
 * Owns: loading the Wasm module (once per process), opening an engine on an
 * adapter factory, and disposing every connection the engine opened. Also
 * patches two adapter defects that matter for our migrations:
 *   - adapter-pg's `executeScript` splits the script on `;`, which cuts a
 *     plpgsql body in pieces and runs the statements one by one outside any
 *     transaction; ours sends the script whole (one implicit transaction);
 *   - pglite-prisma-adapter's `executeScript` does not await, so a failing
 *     migration would be recorded as applied; ours awaits and maps the error.
 * The engine's own 10 s `setTimeout` is unref'd so a CLI can exit when done.
 *
 * Does not: read migration directories or decide what to apply (migrations.ts).
 *
 * `@prisma/schema-engine-wasm` is an internal Prisma package: pinned exactly in
 * package.json; re-test on every Prisma bump.
 */
import { readFileSync } from 'node:fs';
import { bindMigrationAwareSqlAdapterFactory, DriverAdapterError } from '@prisma/driver-adapter-utils';
import type {
  SqlDriverAdapter,
  SqlMigrationAwareDriverAdapterFactory,
} from '@prisma/driver-adapter-utils';
import type { SchemaEngine } from '@prisma/schema-engine-wasm';
import type { PGlite } from '@electric-sql/pglite';
import { resolveInstalled } from '../../resolve-installed';
import type { Pool } from 'pg';

type EngineModule = typeof import('@prisma/schema-engine-wasm/schema_engine_bg');

let loading: Promise<EngineModule> | null = null;

/** Instantiates the Wasm module once per process: a second instantiation panics. */
function loadEngineModule(): Promise<EngineModule> {
  loading ??= (async () => {
    const g = globalThis as { PRISMA_WASM_PANIC_REGISTRY?: { message?: string; set_message(m: string): void } };
    g.PRISMA_WASM_PANIC_REGISTRY ??= {
      set_message(m: string) {
        this.message = m;
      },
    };
    const bg = await import('@prisma/schema-engine-wasm/schema_engine_bg');
    // resolved at run time, not by a bundler: Next's would turn a literal require.resolve into a module id
    const pkg = ['@prisma', 'schema-engine-wasm'].join('/');
    const wasmPath = resolveInstalled(pkg).replace(/schema_engine\.js$/, 'schema_engine_bg.wasm');
    const imports: Record<string, unknown> = { ...bg };
    for (const name of Object.keys(bg)) {
      if (!name.startsWith('__wbg_setTimeout_')) continue;
      // the engine arms a 10 s timer after migrating; unref'd, it no longer keeps a CLI alive
      imports[name] = (fn: () => void, ms: number) => setTimeout(fn, ms >>> 0).unref();
    }
    const { instance } = await WebAssembly.instantiate(readFileSync(wasmPath), {
      './schema_engine_bg.js': imports as WebAssembly.ModuleImports,
    });
    bg.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
    return bg;
  })();
  return loading;
}

export type OpenEngine = {
  engine: SchemaEngine;
  /** frees the engine and disposes every adapter it opened (pools, shadow PGlites) */
  dispose(): Promise<void>;
};

/** Opens a schema engine on `factory` with `schemaFiles` as its datamodel. */
export async function openSchemaEngine(
  factory: SqlMigrationAwareDriverAdapterFactory,
  schemaFiles: [path: string, content: string][],
): Promise<OpenEngine> {
  const bg = await loadEngineModule();
  const opened: SqlDriverAdapter[] = [];
  const tracked: SqlMigrationAwareDriverAdapterFactory = {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => {
      const a = await factory.connect();
      opened.push(a);
      return a;
    },
    connectToShadowDb: async () => {
      const a = await factory.connectToShadowDb();
      opened.push(a);
      return a;
    },
  };
  const log = (line: string) => {
    if (process.env.STAGECRAFT_DEBUG_MIGRATE) process.stderr.write(`[schema-engine] ${line}\n`);
  };
  const engine = await bg.SchemaEngine.new({ datamodels: schemaFiles }, log, bindMigrationAwareSqlAdapterFactory(tracked));
  return {
    engine,
    dispose: async () => {
      engine.free();
      for (const a of opened.splice(0)) await a.dispose().catch(() => {});
    },
  };
}

/** Wraps adapter-pg so that a migration script runs whole, as one implicit transaction. */
export function wholeScriptPgFactory(
  inner: SqlMigrationAwareDriverAdapterFactory,
  shadow: () => Promise<SqlDriverAdapter>,
): SqlMigrationAwareDriverAdapterFactory {
  return {
    provider: inner.provider,
    adapterName: inner.adapterName,
    connect: async () => {
      const a = await inner.connect();
      const pool = (a as unknown as { underlyingDriver(): Pool }).underlyingDriver();
      a.executeScript = async (script: string) => {
        try {
          await pool.query(script);
        } catch (e) {
          throw asDriverAdapterError(e);
        }
      };
      return a;
    },
    // adapter-pg's own shadow database ignores `database` when a connection string is set
    // and drops it while its pool is still connected: a scratch PGlite is the shadow instead
    connectToShadowDb: shadow,
  };
}

/** Wraps pglite-prisma-adapter so that `executeScript` awaits and reports failures. */
export function awaitingPgliteFactory(
  inner: SqlMigrationAwareDriverAdapterFactory,
  db: PGlite,
): SqlMigrationAwareDriverAdapterFactory {
  const patch = (a: SqlDriverAdapter, pg: PGlite) => {
    a.executeScript = async (script: string) => {
      try {
        await pg.exec(script);
      } catch (e) {
        throw asDriverAdapterError(e);
      }
    };
    return a;
  };
  return {
    provider: inner.provider,
    adapterName: inner.adapterName,
    connect: async () => patch(await inner.connect(), db),
    connectToShadowDb: async () => {
      const a = await inner.connectToShadowDb();
      const pg = (a as unknown as { client: PGlite }).client;
      const patched = patch(a, pg);
      patched.dispose = async () => void (await pg.close().catch(() => {}));
      return patched;
    },
  };
}

function asDriverAdapterError(e: unknown): Error {
  const err = e as { code?: string; message?: string; severity?: string; detail?: string };
  if (typeof err?.code === 'string' && typeof err.message === 'string') {
    return new DriverAdapterError({
      kind: 'postgres',
      code: err.code,
      severity: err.severity ?? 'ERROR',
      message: err.message,
      detail: err.detail,
      column: undefined,
      hint: undefined,
    });
  }
  return e instanceof Error ? e : new Error(String(e));
}

