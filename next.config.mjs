import path from 'node:path';

// monaco-yaml@5 -> monaco-worker-manager/worker imports 'monaco-editor/esm/vs/editor/editor.worker.js',
// which monaco-editor>=0.56's "exports" map rejects: alias it to the subpath the map exposes.
const OLD_WORKER = 'monaco-editor/esm/vs/editor/editor.worker.js';

/** @type {import('next').NextConfig} */
export default {
  reactStrictMode: true,
  // `npm test` type-checks the whole project (`tsc -p .`) just before it builds: it sets
  // STAGECRAFT_TYPES_CHECKED=1 once that passed, and the build skips checking the same files again
  // (37 s of the build's 100 on a 2-core machine). `npm run build` and `npm start` still check them
  typescript: { ignoreBuildErrors: process.env.STAGECRAFT_TYPES_CHECKED === '1' },
  allowedDevOrigins: ['127.0.0.1'],
  // `next start` loads every page's and route's code as it starts unless told not to: ~0.4 s of CPU that
  // competes with the store's opening for the first page (bench:start); each route loads on its first request
  // Turbopack keeps what it built in .next/cache for the next build (~11 s of writing here, which a
  // rebuild by `npm start` after an edit gets back). A clean clone's CI never builds twice:
  // STAGECRAFT_BUILD_CACHE=off (.ci/run) skips the writing
  experimental: { preloadEntriesOnStart: false, turbopackFileSystemCacheForBuild: process.env.STAGECRAFT_BUILD_CACHE !== 'off' },
  // loaded by Node at run time, never bundled: PGlite finds its wasm via import.meta.url,
  // the migration loader reads files, the sandbox spawns workers from files on disk; the run queue
  // and the OTLP exporters are loaded only when configured (a dynamic import of the real package)
  serverExternalPackages: [
    '@electric-sql/pglite',
    'pglite-prisma-adapter',
    '@prisma/schema-engine-wasm',
    'tsx',
    'pg-boss',
    '@opentelemetry/api',
    '@opentelemetry/resources',
    '@opentelemetry/sdk-trace-base',
    '@opentelemetry/exporter-trace-otlp-proto',
    '@opentelemetry/exporter-trace-otlp-http',
  ],
  turbopack: {
    resolveAlias: { [OLD_WORKER]: 'monaco-editor/editor/editor.worker.js' },
    // the skill.md frontmatter validator and JSON Schema's meta-schema, compiled by ajv at build time
    // (scripts/precompiled-loader.cjs), not as the studio opens
    rules: { '*-precompiled.ts': { loaders: [path.resolve('scripts/precompiled-loader.cjs')], as: '*.js' } },
  },
  // the build's static files bypass proxy.ts (which sets every other answer's headers): never framed, never sniffed;
  // cross-origin isolated as the pages are (lib/server/http/security.ts ISOLATION_HEADERS): a worker's script is its document
  headers: async () => [
    {
      source: '/_next/:path*',
      headers: [
        { key: 'X-Frame-Options', value: 'DENY' },
        { key: 'X-Content-Type-Options', value: 'nosniff' },
        { key: 'Cross-Origin-Opener-Policy', value: 'same-origin' },
        { key: 'Cross-Origin-Embedder-Policy', value: 'require-corp' },
      ],
    },
  ],
  webpack: (config) => {
    config.resolve.alias[`${OLD_WORKER}$`] = path.resolve('node_modules/monaco-editor/esm/vs/editor/editor.worker.js');
    return config;
  },
};
