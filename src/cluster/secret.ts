import { createHash, timingSafeEqual } from 'node:crypto';

/** The header a node sends its cluster-secret in when it links to a peer. */
export const secretHeader = 'x-tocsin-cluster-secret';

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/** Whether `given` is `secret`, in time that does not tell how much of it matched. */
export function secretMatches(given: string, secret: string): boolean {
  return timingSafeEqual(digest(given), digest(secret));
}
