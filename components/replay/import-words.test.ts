// An import the app refused names the file once: "x.json was not imported: the uploaded file: …" said it twice.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { importRefusedText } from './import-words';

test('a refused import names the file by its name, once', () => {
  const message = 'the uploaded file: the file does not match its sha256: it was changed after export. Nothing was imported from it.';
  assert.equal(importRefusedText('x.json', message), 'x.json was not imported: the file does not match its sha256: it was changed after export. Nothing was imported from it.');
  assert.equal(importRefusedText(null, 'The request body is too large.'), 'The file was not imported: The request body is too large.');
});
