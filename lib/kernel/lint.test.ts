// The lint rule that keeps lib/kernel pure is itself tested: each banned
// import or ambient call in a kernel file is an error; the same code outside
// the kernel is fine.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ESLint } from 'eslint';

const eslint = new ESLint({ cwd: process.cwd() });

async function ruleIds(code: string, filePath: string): Promise<string[]> {
  const [r] = await eslint.lintText(code, { filePath });
  return r.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

const BANNED: [string, RegExp][] = [
  ["import React from 'react';\nexport const x = React;", /must not import React/],
  ["import { NextResponse } from 'next/server';\nexport const x = NextResponse;", /must not import Next/],
  ["import { PrismaClient } from '@prisma/client';\nexport const x = PrismaClient;", /must not import Prisma/],
  ['export const t = Date.now();', /Clock port/],
  ['export const r = Math.random();', /IdSource port/],
  ["import { randomUUID } from 'node:crypto';\nexport const id = randomUUID();", /IdSource port/],
  ['export const id = crypto.randomUUID();', /IdSource port/],
  ['export const d = new Date();', /Clock port/],
];

for (const [code, why] of BANNED) {
  test(`lib/kernel rejects: ${code.split('\n').at(-1)}`, async () => {
    const msgs = await ruleIds(code, 'lib/kernel/probe.ts');
    assert.ok(msgs.some((m) => why.test(m)), `expected ${why} in ${JSON.stringify(msgs)}`);
    const outside = await ruleIds(code, 'lib/server/probe.ts');
    assert.ok(!outside.some((m) => why.test(m)), 'the ban applies only to lib/kernel');
  });
}
