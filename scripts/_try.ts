import { createMigration, diffHistoryToSchema } from '../lib/store/migrate/migrations';
const t=Date.now();
console.log(await createMigration('init'));
console.log('ms', Date.now()-t);
process.exit(0);
