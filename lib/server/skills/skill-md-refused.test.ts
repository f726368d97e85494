// `stagecraft push DIR` of a folder whose skill.md is not UTF-8 (or over its size limit) said two
// problems: the located one, and "The bundle has no skill.md" — it has one, refused — so push's
// message ended "(and 1 more problem)" and --json listed the false one. A skill.md read and refused
// is that problem alone, as `validate` already said.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { readBundleDir } from "./bundle-dir";
import { MAX_SKILL_BYTES } from "../../skill/validate";

const root = mkdtempSync(path.join(tmpdir(), "sc-skill-md-refused-"));
after(() => rmSync(root, { recursive: true, force: true }));

function bundleWith(name: string, skillMd: Buffer): string {
  const dir = path.join(root, name);
  mkdirSync(dir);
  writeFileSync(path.join(dir, "skill.md"), skillMd);
  writeFileSync(path.join(dir, "model.yaml"), "turns: []\n");
  return dir;
}

test("a skill.md that is not UTF-8 is that one problem, not also a missing skill.md", () => {
  const dir = bundleWith(
    "latin",
    Buffer.concat([
      Buffer.from("---\nname: latin\ndescription: caf"),
      Buffer.from([0xe9]),
      Buffer.from("\n---\n"),
    ]),
  );
  assert.deepEqual(
    readBundleDir(dir).problems.map((p) => p.code),
    ["skill_md_not_utf8"],
  );
});

test("a skill.md over its size limit is that one problem, not also a missing skill.md", () => {
  const dir = bundleWith(
    "huge",
    Buffer.from(`---\nname: huge\n---\n${"x".repeat(MAX_SKILL_BYTES)}\n`),
  );
  assert.deepEqual(
    readBundleDir(dir).problems.map((p) => p.code),
    ["bundle_file_too_large"],
  );
});

test("a folder with no skill.md at all still says so", () => {
  const dir = path.join(root, "none");
  mkdirSync(dir);
  writeFileSync(path.join(dir, "notes.txt"), "hi\n");
  assert.deepEqual(
    readBundleDir(dir).problems.map((p) => p.code),
    ["bundle_no_skill_md"],
  );
});
