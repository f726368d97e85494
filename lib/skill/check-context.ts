/**
 * What every semantic check of skill.md is handed: the frontmatter value (not
 * trusted to have the schema's shape), the graph facts derived from it, where
 * the bundle is, and the findings to add to.
 *
 * Owns: the shape of that context. Does not: check anything.
 */
import type { FileExists, ReadBundleText } from './bundle-paths';
import type { GraphFacts } from './frontmatter';
import type { Findings } from './rules';
import type { FrontmatterSource } from './source';

export type CheckContext = {
  fm: Record<string, unknown>;
  graph: GraphFacts;
  findings: Findings;
  source: FrontmatterSource;
  /** the bundle folder (absolute, or as the caller gave it) */
  bundleDir: string;
  fileExists: FileExists;
  /** a bundle file's text, for checks that look inside modules; undefined: they are skipped */
  readText?: ReadBundleText;
};
