/**
 * The bundle a new skill starts from when it is not copied from another: a
 * one-phase skill that validates and runs offline at once (its model script
 * answers), so a new user sees the whole loop — edit, diagram, run — before
 * writing anything of their own.
 */
import type { BundleFiles } from '../../skill/bundle';

export function blankBundle(name: string): BundleFiles {
  return {
    'skill.md': `---
name: ${name}
description: Answers a question in one short paragraph
entry: answer
graph:
  answer: []
output_schema:
  type: object
  properties:
    answer: { type: string, minLength: 1 }
  required: [answer]
---
You are a concise, careful assistant.

## answer
Answer the question in the input in one short paragraph.
`,
    'model.yaml': `# A scripted model: the turns a run is answered with, offline.
# Run with another model (an OpenAI-compatible endpoint) from the Run panel.
turns:
  - phase: answer
    finish: { answer: "A skill is a graph of model phases plus the steps that check and shape what they produce." }
`,
    'input.json': `{ "question": "What is a skill?" }\n`,
  };
}
