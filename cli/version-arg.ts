/** `--version HASH` as given on the command line (pull, replay, fork, regress): a caller's mistake in its shape is a usage error (exit 2). */
import { UsageError } from '../lib/kernel/errors';
import { OPTIONAL_VERSION_HINT, versionRef } from '../lib/views';

/** --version as given, once it can name a version at all (else a usage error, as the API's 400: `replay --check` exits 1 only on a divergence) */
export function versionArg(version: string | undefined): string | undefined {
  if (version !== undefined && !versionRef.safeParse(version).success) {
    throw new UsageError(`--version "${version}": ${OPTIONAL_VERSION_HINT}.`);
  }
  return version;
}
