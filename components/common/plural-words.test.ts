// The studio says a count as the kernel does (lib/kernel/plural.ts): no component keeps a plural
// helper of its own, and the words come out as before.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { relativeTime } from './format';

const ROOT = path.join(path.dirname(new URL(import.meta.url).pathname), '..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const at = path.join(dir, e.name);
    if (e.isDirectory()) return sources(at);
    return /\.tsx?$/.test(e.name) && !e.name.endsWith('.test.ts') ? [at] : [];
  });
}

test('no component defines a plural helper of its own: they import the kernel one', () => {
  const own = sources(ROOT).filter((f) => /\b(const|function|let)\s+plural\b/.test(readFileSync(f, 'utf8')));
  assert.deepEqual(own.map((f) => path.relative(ROOT, f)), []);
});

test("no component or page says a count's noun with a ternary of its own ('error${n === 1 ? '' : 's'}'): plural says it", () => {
  const APP = path.join(ROOT, '..', 'app');
  const inline = [...sources(ROOT), ...sources(APP)].filter((f) => /=== 1 \? '' : 's'|=== 1 \? '(\w+)' : '\1s'/.test(readFileSync(f, 'utf8')));
  assert.deepEqual(inline.map((f) => path.relative(path.join(ROOT, '..'), f)), []);
});

test('relative times read as before: a count and its noun, then ago', () => {
  const now = 1_000_000_000_000;
  const HOUR_MS = 3_600_000;
  assert.deepEqual(
    [1, 2].map((h) => relativeTime(now - h * HOUR_MS, now)),
    ['1 hour ago', '2 hours ago'],
  );
  assert.deepEqual([3, 21, 90, 400].map((d) => relativeTime(now - d * 24 * HOUR_MS, now)), ['3 days ago', '3 weeks ago', '3 months ago', '1 year ago']);
});
