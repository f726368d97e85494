/**
 * The real clock and id source, handed to the kernel by every composition
 * root (CLI, app). The kernel never reads time or randomness itself.
 *
 * Ids are time-ordered (`run_<ms base36><random hex>`) so a list sorted by id
 * is sorted by start time.
 */
import { randomFillSync } from 'node:crypto';
import type { Clock, IdSource } from '../kernel/ports';

export const systemClock: Clock = { now: () => Date.now() };

export const randomIds: IdSource = {
  newId: (kind) => `${kind}_${Date.now().toString(36)}${randomHex()}`,
};

/**
 * Random bytes for ids, drawn from the CSPRNG 4 kB at a time: a `randomBytes(5)` per id cost more
 * than the rest of making it (a buffer and a call into OpenSSL each). Each byte is used once.
 */
const POOL = Buffer.alloc(4096);
const ID_BYTES = 5;
let used = POOL.length;

/** ID_BYTES fresh random bytes as hex */
function randomHex(): string {
  if (used + ID_BYTES > POOL.length) {
    randomFillSync(POOL);
    used = 0;
  }
  used += ID_BYTES;
  return POOL.toString('hex', used - ID_BYTES, used);
}
