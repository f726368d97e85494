// What the studio's New file dialog says of a path it will not add. A bundle path's problem is said
// as the store says it (lib/skill/bundle.ts), but for a file that is not in the bundle yet: a path in a
// version-control folder is named so with where to put it instead — "Remove the file from the bundle"
// is for a bundle that holds one.
import { bundlePathProblem } from '@/lib/skill/bundle';

const REMOVE = ' Remove the file from the bundle.';

/** null when `path` can be added to a bundle holding `existing` */
export function newFilePathProblem(path: string, existing: readonly string[]): string | null {
  if (path === '') return null;
  if (existing.includes(path)) return `${path} is already in the bundle.`;
  const problem = bundlePathProblem(path);
  if (!problem) return null;
  if (problem.code === 'bundle_path_vcs' && problem.message.endsWith(REMOVE)) {
    return `${problem.message.slice(0, -REMOVE.length)} Name the file by a path outside that folder.`;
  }
  return problem.message;
}
