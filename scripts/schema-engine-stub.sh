#!/bin/sh
# Stand-in for Prisma's native schema-engine binary, which the CLI would download
# from binaries.prisma.sh (unreachable here). `prisma generate` only needs the
# path to exist; migrations go through the Wasm engine (scripts/db-migrate.ts).
echo "schema-engine is not available offline: use npm run db:migrate:new / db:migrate / db:check" >&2
exit 1
