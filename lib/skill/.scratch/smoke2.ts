import { loadSkillBundle, graphModel } from '../index';
const dir = new URL('../fixtures/blog_writer/', import.meta.url).pathname;
const r = await loadSkillBundle(dir);
console.log(JSON.stringify({ ...r.plan, effectGrants: [...r.plan.effectGrants], permittedOps: [...r.plan.permittedOps] }, null, 1).slice(0, 6000));
console.log(JSON.stringify(graphModel(r.plan), null, 0));
