/** What a visitor's first request spent, carried to its second: bits. */
export const spentRequest = 1;
export const spentMessage = 2;
export const spentEmail = 4;

/**
 * Visitors seen once, kept as numbers, not objects: a 32-bit fingerprint of the key and
 * what the first request spent, in typed arrays indexed by the fingerprint (a
 * direct-mapped table). In an address flood every request is a first visit; holding each
 * visitor as an object until its second request, even a thousand of them for a few
 * milliseconds, had the GC promote ~15 MB/s to the old generation (measured with
 * --trace-gc-nvp) and cost the flood bench 8–12 points of its ratio to one address. Here
 * a first visit allocates nothing that outlives its request.
 *
 * A newer first visit whose fingerprint lands on an occupied slot replaces the one there,
 * which then starts afresh on its next request, as if never seen: it gets back what its
 * first request spent (one request, at most one message and one e-mail). With 65,536
 * slots a first visit is typically remembered across tens of thousands of other new
 * addresses. Two keys share a slot and fingerprint with probability 2^-32: the later one
 * is taken for the earlier's second visit, which charges it the earlier's first request.
 */
export class FirstVisits {
  private readonly prints: Int32Array;
  private readonly spent: Uint8Array;
  private readonly mask: number;
  /** Slots holding a first visit. */
  size = 0;
  /** First visits replaced by newer ones before their second (tocsin_visitor_evictions_total). */
  replaced = 0;

  constructor(slots: number) {
    if (!(slots >= 1 && Number.isInteger(Math.log2(slots)))) throw new Error(`FirstVisits needs a power of two of slots, got ${slots}`);
    this.prints = new Int32Array(slots);
    this.spent = new Uint8Array(slots);
    this.mask = slots - 1;
  }

  /**
   * A visit from `key`, not held as a visitor: its first (noted; answers 0) or its second
   * (forgotten; answers what the first spent: `spentRequest`, with `spentMessage` and
   * `spentEmail` if it did).
   */
  arrive(key: string): number {
    const print = fingerprint(key);
    const slot = this.slotOf(print);
    if (this.prints[slot] === print) {
      this.prints[slot] = 0;
      this.size--;
      return this.spent[slot] as number;
    }
    if (this.prints[slot] === 0) this.size++;
    else this.replaced++;
    this.prints[slot] = print;
    this.spent[slot] = spentRequest;
    return 0;
  }

  /** `key` is held as a visitor now: its first visit is no longer one. Answers what it spent (0: none remembered). */
  forget(key: string): number {
    const print = fingerprint(key);
    const slot = this.slotOf(print);
    if (this.prints[slot] !== print) return 0;
    this.prints[slot] = 0;
    this.size--;
    return this.spent[slot] as number;
  }

  /** The first visit of `key`, if still remembered, spent `what` too. */
  spend(key: string, what: number): void {
    const print = fingerprint(key);
    const slot = this.slotOf(print);
    if (this.prints[slot] === print) this.spent[slot] = (this.spent[slot] as number) | what;
  }

  /** The slot from all of the fingerprint's bits (murmur3's finaliser), so similar keys spread. */
  private slotOf(print: number): number {
    let h = print ^ (print >>> 16);
    h = Math.imul(h, 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    return (h ^ (h >>> 16)) & this.mask;
  }
}

/** FNV-1a over the key's UTF-16 units; never 0, which marks an empty slot. */
function fingerprint(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h === 0 ? 1 : h;
}
