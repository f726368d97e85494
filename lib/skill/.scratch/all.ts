import { RULE_CASES } from '../fixtures/rule-cases';
import { validate, show } from '../fixtures/helpers';
for (const c of RULE_CASES) { console.log('## ' + c.name); console.log(show(validate(c.text))); }
