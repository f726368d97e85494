/**
 * The real clock and id source, handed to the kernel by every composition
 * root (CLI, app). The kernel never reads time or randomness itself.
 *
 * Ids are time-ordered (`run_<ms base36><random hex>`) so a list sorted by id
 * is sorted by start time.
 */
import { randomBytes } from 'node:crypto';
import type { Clock, IdSource } from '../kernel/ports';

export const systemClock: Clock = { now: () => Date.now() };

export const randomIds: IdSource = {
  newId: (kind) => `${kind}_${Date.now().toString(36)}${randomBytes(5).toString('hex')}`,
};
