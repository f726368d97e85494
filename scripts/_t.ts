import { PrismaClient } from '../lib/store/generated/prisma/client';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { PGlite } from '@electric-sql/pglite';
import { deployToPglite } from '../lib/store/migrate/targets';
const pgc = new PrismaClient({ adapter: new PrismaPg({ connectionString: 'postgresql://postgres@127.0.0.1:5432/stagecraft_try' }) });
const db = await PGlite.create(); await deployToPglite(db);
const plc = new PrismaClient({ adapter: new PrismaPGlite(db) });
for (const [name, c] of [['pg', pgc], ['pglite', plc]] as const) {
  const tries: [string, () => Promise<unknown>][] = [
    ['missing run', () => c.$queryRaw`SELECT stagecraft_commit(${'nope'}, ${'{}'}::jsonb) AS r`],
    ['create', () => c.$queryRaw`SELECT stagecraft_create_run(${JSON.stringify({id:'r1', skillName:'s', skillHash:'h', skillText:'t', bundleDir:'/b', skillVersionId:null, input:{}, model:'m', status:'running', output:null, error:null, report:null, parentRunId:null, createdAt: 1000, updatedAt: 1000})}::jsonb, ${JSON.stringify({events:[{runId:'r1',seq:1,type:'run_started',at:1000,data:{a:1}}]})}::jsonb) AS r`],
    ['create again', () => c.$queryRaw`SELECT stagecraft_create_run(${JSON.stringify({id:'r1'})}::jsonb, ${'{}'}::jsonb) AS r`],
    ['conflict', () => c.$queryRaw`SELECT stagecraft_commit(${'r1'}, ${JSON.stringify({events:[{seq:1,type:'x',at:1,data:{}}]})}::jsonb) AS r`],
    ['gap', () => c.$queryRaw`SELECT stagecraft_commit(${'r1'}, ${JSON.stringify({events:[{seq:3,type:'x',at:1,data:{}}]})}::jsonb) AS r`],
    ['nul', () => c.$queryRaw`SELECT stagecraft_commit(${'r1'}, ${JSON.stringify({events:[{seq:2,type:'x',at:1,data:{s:'a\u0000b'}}]})}::jsonb) AS r`],
    ['update', () => c.$executeRaw`UPDATE events SET type = 'y'`],
    ['delete', () => c.$executeRaw`DELETE FROM events`],
    ['dup pk via direct insert', () => c.$executeRaw`INSERT INTO events (run_id, seq, type, at, data) VALUES ('r1', 1, 'x', now(), '{}')`],
    ['orm read', () => c.event.findMany({ where: { runId: 'r1' } })],
  ];
  for (const [label, f] of tries) {
    try { console.log(name, label, 'OK', JSON.stringify(await f(), (k, v) => typeof v === 'bigint' ? String(v) : v)); }
    catch (e: any) { console.log(name, label, 'ERR', e.constructor.name, e.code, JSON.stringify(e.meta), '|', String(e.message).slice(0, 300)); }
  }
}
await pgc.$disconnect(); await plc.$disconnect();
