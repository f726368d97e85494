/** @type {import('next').NextConfig} */
export default {
  reactStrictMode: true,
  allowedDevOrigins: ['127.0.0.1'],
  // loaded by Node at run time, never bundled: PGlite finds its wasm via import.meta.url,
  // the migration loader reads files, the sandbox spawns workers from files on disk
  serverExternalPackages: ['@electric-sql/pglite', 'pglite-prisma-adapter', '@prisma/schema-engine-wasm', 'tsx'],
};
