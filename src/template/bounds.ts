/**
 * Size bounds on values a template builds. Go has none; in a request path they keep one
 * template from exhausting memory before the deadline is next checked (a string doubled in a
 * loop, a list joined with itself).
 */

/** Longest string a function may build or return, in UTF-16 units. */
export const MAX_VALUE = 1 << 20;
/** Most elements a list may have. */
export const MAX_LIST = 100_000;

/** A render bound was hit: catch-alls inside functions pass it on, so the render stops. */
export class RenderLimit extends Error {}

/** Thrown where a value would exceed its bound; the executor reports it as 'too-large'. */
export class ValueTooLarge extends RenderLimit {
  constructor(what = 'value') {
    super(`${what} longer than ${what === 'list' ? MAX_LIST : MAX_VALUE}`);
  }
}

/** parts.join(sep), refusing before it builds a string over the bound. */
export function joinBounded(parts: readonly string[], sep: string): string {
  let n = Math.max(parts.length - 1, 0) * sep.length;
  for (const p of parts) n += p.length;
  checkLength(n);
  return parts.join(sep);
}

/** Fails when a string about to be built would be longer than MAX_VALUE. */
export function checkLength(n: number): void {
  if (n > MAX_VALUE) throw new ValueTooLarge('string');
}

/** out + piece, refused before the concatenation when it would pass MAX_VALUE. */
export function append(out: string, piece: string): string {
  checkLength(out.length + piece.length);
  return out + piece;
}
