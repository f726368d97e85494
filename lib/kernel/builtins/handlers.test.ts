import { test } from 'node:test';
import assert from 'node:assert/strict';
import { redactText } from './handlers';

/** the e-mail pattern pii_redact documents, matched by the JavaScript engine */
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;

test('pii_redact finds the e-mail addresses the documented pattern does, in time linear in the text', () => {
  // a finish artifact is the model's: 200 KB of letters held the event loop some 80 s
  for (const text of ['a'.repeat(200_000), `a@${'a'.repeat(200_000)}`, `@${'a.'.repeat(100_000)}`, 'a@'.repeat(100_000)]) {
    const started = performance.now();
    assert.equal(redactText(text, ['email'], '[redacted]'), text);
    const ms = performance.now() - started;
    assert.ok(ms < 500, `${text.slice(0, 10)}… (${text.length} characters) took ${Math.round(ms)} ms`);
  }
});

test('pii_redact replaces exactly what String.prototype.replace with the pattern replaces, $ patterns of the replacement included', () => {
  const alphabet = ['a', 'B', '7', '.', '-', '_', '+', '%', '@', ' ', ',', 'é', '\n'];
  let seed = 42;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let i = 0; i < 5_000; i++) {
    const text = Array.from({ length: Math.floor(next() * 40) }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
    for (const replacement of ['[redacted]', '<$&>', "$$|$`|$'|$1|$<x>|$"]) {
      assert.equal(redactText(text, ['email'], replacement), text.replace(EMAIL, replacement), JSON.stringify({ text, replacement }));
    }
  }
  assert.equal(redactText('Mail jane.doe@example.com, or ops@a-b.example.org.', ['email'], '[redacted]'), 'Mail [redacted], or [redacted].');
  assert.equal(redactText('a@b.cc1x@e.ff', ['email'], '#'), '##');
});
