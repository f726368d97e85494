import { openStore } from '../lib/store/open-store';
import { makeRun, ev } from '../lib/store/store-contract';
import * as errs from '../lib/store/errors';
const store = await openStore({ databaseUrl: 'postgresql://postgres@127.0.0.1:5432/stagecraft_try' });
let races = 0;
const orig = errs.isEventKeyRace;
const p = store.prisma;
for (let k = 0; k < 20; k++) {
  const run = makeRun();
  await store.createRun(run, { events: [ev(run.id, 1)] });
  const rs = await Promise.all([0,1,2,3,4,5,6,7].map(i => store.commit(run.id, { events: [ev(run.id, 2, 'x', { i })] }).catch(e => ({ kind: 'error', e: String(e) }))));
  const kinds = rs.map(r => r.kind).join(',');
  if (rs.some(r => r.kind === 'error')) console.log(kinds, rs.find(r=>r.kind==='error'));
}
console.log('done');
await store.close();
