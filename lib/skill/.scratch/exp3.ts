import { frontmatterValidator } from '../ajv';
const v = frontmatterValidator();
console.log(v({ name: 'x', entry: 'a', graph: { a: [] } }), v.errors);
v({ name: 'X', entry: 'a', graph: { a: [] }, capabilities: [{ name: 'c', stage: 'post-tool', uses: 'builtin:tool_result_budget', with: { max_char: 3 } }, { name: 'd', stage: 'x', uses: 'foo' }],
  postprocessor: { output_schema: 'x', steps: [{ type: 'iterate', over: 'a', steps: [{ type: 'llm' }, { type: 'run_op', op: 'ask_user' }] }] } });
console.log(JSON.stringify(v.errors?.map(e => [e.instancePath, e.schemaPath, e.keyword, e.params])));
