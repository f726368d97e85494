// `stagecraft validate DIR` of a bundle whose code file is there but refused (not UTF-8 text, unreadable,
// too large) said so — and then said the step's `module: ./sanitize.py` "does not exist in the bundle
// folder … create it": a second, false error pointing the author at a file they have. The refused file
// is now that one problem; a module naming a file that is really absent is still said to be missing.
import assert from "node:assert/strict";
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { after, test } from "node:test";
import { validateFolder } from "./validate-folder";

const examples = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../examples",
);
const root = mkdtempSync(path.join(tmpdir(), "sc-refused-module-"));
after(() => rmSync(root, { recursive: true, force: true }));

function summarizeWith(name: string, sanitize: Buffer | null): string {
  const dir = path.join(root, name);
  cpSync(path.join(examples, "summarize"), dir, { recursive: true });
  if (sanitize) writeFileSync(path.join(dir, "sanitize.py"), sanitize);
  else rmSync(path.join(dir, "sanitize.py"));
  return dir;
}

test("a module file that is not UTF-8 is that one error, not also a module that does not exist", () => {
  const dir = summarizeWith(
    "latin",
    Buffer.concat([
      Buffer.from("# caf"),
      Buffer.from([0xe9]),
      Buffer.from("\ndef sanitize(v):\n    return v\n"),
    ]),
  );
  const view = validateFolder(dir, path.join(dir, "skill.md"));
  assert.deepEqual(
    view.diagnostics.filter((d) => d.severity === "error").map((d) => d.rule),
    ["bundle_file_binary"],
  );
});

test("a module file that is not there is still said to be missing", () => {
  const dir = summarizeWith("missing", null);
  const view = validateFolder(dir, path.join(dir, "skill.md"));
  assert.deepEqual(
    view.diagnostics.filter((d) => d.severity === "error").map((d) => d.rule),
    ["module_not_found"],
  );
});

// `validate bin1` of a code file holding a NUL (UTF-8, but binary) located it at `sanitize.py:1:1`, where
// every other finding of the folder says `bin1/…`: a CI annotation pointed at no file. It is located under
// the folder as named, as the problems only the folder's reading finds are.
test("a binary file's problem is located under the folder as named", () => {
  const dir = summarizeWith('nul', Buffer.from('def sanitize(v):\0\n    return v\n'));
  const shown = path.join('shown', 'nul', 'skill.md');
  const binary = validateFolder(dir, shown).diagnostics.find((d) => d.rule === 'bundle_file_binary');
  assert.equal(binary?.file, path.join('shown', 'nul', 'sanitize.py'));
});
