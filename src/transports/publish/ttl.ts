import { errors } from '../../model/errors.js';
import { parseDuration } from '../../model/units.js';

/**
 * The `TTL` parameter (Tocsin's own, issue 37) in milliseconds: ntfy's duration syntax, as
 * `cache-duration` takes it (model/units.ts), of at least a second, since `expires` counts
 * whole seconds and a shorter one would expire the message as it is stored. 40094 otherwise.
 */
export function parseTtl(value: string): number {
  let ms: number;
  try {
    ms = parseDuration(value);
  } catch {
    throw errors.ttlInvalid;
  }
  if (!(ms >= 1000)) throw errors.ttlInvalid;
  return ms;
}
