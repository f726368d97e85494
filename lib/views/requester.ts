/**
 * Who asks for an abort from a command line, as the run records it — kept apart from the views' zod
 * schemas (run-actions.ts takes its pattern) so that `stagecraft abort` and `resume` load no zod.
 */

/** a user name as `stagecraft abort` puts it in who asks: no whitespace or parentheses, bounded */
const CLI_USER = /^[^\s()]{1,64}$/;
/** who asks, as `stagecraft abort` says it: `cli`, or `cli (user NAME)` */
export const CLI_REQUESTER = /^cli(?: \(user [^\s()]{1,64}\))?$/;

/** Who asks from a command line, as the run records it: `cli (user dana)`, or `cli` when the user has no name that fits. */
export function cliRequester(username: string | null): string {
  return username !== null && CLI_USER.test(username) ? `cli (user ${username})` : 'cli';
}
