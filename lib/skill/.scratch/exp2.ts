import Ajv2020Module from 'ajv/dist/2020.js';
const Ajv2020 = ((Ajv2020Module as any).default ?? Ajv2020Module);
const ajv = new Ajv2020({ allErrors: true, strict: true });
const schema = {
  type: 'object', additionalProperties: false,
  properties: {
    graph: { type: 'object', propertyNames: { pattern: '^[a-z]+$' }, additionalProperties: { type: ['array','null'], items: {type:'string'}, uniqueItems: true } },
    uses: { anyOf: [ { enum: ['builtin:a'] }, { type: 'string', pattern: '^[^#]+#\\w+$' } ] },
    steps: { type: 'array', items: { type: 'object', required: ['type'], properties: { type: { enum: ['validate','run_op'] } },
      allOf: [ { if: { properties: { type: { const: 'validate' } }, required: ['type'] }, then: { type: 'object', properties: { type: {}, schema: {} }, required: ['schema'], additionalProperties: false } } ] } },
  },
};
const v = ajv.compile(schema);
v({ graph: { Draft: ['a','a'] }, uses: 'builtin:b', steps: [ { type: 'validate', schemaa: 1 }, { type: 'llm' } ], extra: 1 });
console.log(JSON.stringify(v.errors, null, 1));
const ajv2 = new Ajv2020({ allErrors: true, strict: true, strictTypes: false, strictTuples: false });
console.log(ajv2.validateSchema({ type: 'strin', properties: { a: { minimum: 'x' } } }), JSON.stringify(ajv2.errors));
try { ajv2.compile({ type: 'object', propertiez: {} }); } catch (e: any) { console.log('ERR', e.message); }
try { ajv2.compile({ $ref: '#/nope' }); } catch (e: any) { console.log('ERR', e.message); }
try { ajv2.compile({ type: 'string', format: 'emale' }); } catch (e: any) { console.log('ERR', e.message); }
try { ajv2.compile({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'string' }); } catch (e: any) { console.log('ERR', e.message); }
