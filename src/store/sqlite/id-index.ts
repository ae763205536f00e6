/**
 * A hash table from message id to commit sequence number, in one Float64Array: slot i
 * holds a 52-bit hash of the id at 2i (0: empty) and the seq at 2i + 1, open addressing
 * with linear probing. 16 bytes a slot at most 70% full, 23–46 bytes a message, where a
 * Map of strings takes about 100.
 *
 * It stands in for a B-tree index on the id column: ids are random, so each insert into
 * such an index dirties a page of its own, which the WAL writes out whole (4 KB) and the
 * checkpoint writes again — about 12 µs of a publish's 40 on disk (bench/README.md).
 *
 * Only hashes are kept, so a match is a candidate: the caller checks it against the row.
 * Equal hashes of different ids sit side by side; `find` offers each in turn.
 */
export class IdIndex {
  private slots: Float64Array;
  private mask: number;
  private used = 0;

  constructor(private readonly minCapacity = 1024) {
    this.slots = new Float64Array(2 * minCapacity);
    this.mask = minCapacity - 1;
  }

  get size(): number {
    return this.used;
  }

  add(id: string, seq: number): void {
    if (this.used + 1 > 0.7 * (this.mask + 1)) this.resize(2 * (this.mask + 1));
    this.place(hashOf(id), seq);
    this.used++;
  }

  /** The first candidate seq of `id` that `accept` takes (it checks the row), or undefined. */
  find(id: string, accept: (seq: number) => boolean): number | undefined {
    const key = hashOf(id);
    const { slots, mask } = this;
    for (let i = homeOf(key, mask); slots[2 * i] !== 0; i = (i + 1) & mask) {
      const seq = slots[2 * i + 1] as number;
      if (slots[2 * i] === key && accept(seq)) return seq;
    }
    return undefined;
  }

  /** Forgets `id` at `seq`; false when it was not held. */
  remove(id: string, seq: number): boolean {
    const key = hashOf(id);
    const { slots, mask } = this;
    let i = homeOf(key, mask);
    while (slots[2 * i] !== 0 && !(slots[2 * i] === key && slots[2 * i + 1] === seq)) i = (i + 1) & mask;
    if (slots[2 * i] === 0) return false;
    // Backward-shift deletion: pull each later entry of the run into the hole unless its
    // home lies between the hole and it (cyclically), so no probe ever stops short.
    for (let j = (i + 1) & mask; slots[2 * j] !== 0; j = (j + 1) & mask) {
      const home = homeOf(slots[2 * j] as number, mask);
      const stays = i <= j ? i < home && home <= j : i < home || home <= j;
      if (stays) continue;
      slots[2 * i] = slots[2 * j] as number;
      slots[2 * i + 1] = slots[2 * j + 1] as number;
      i = j;
    }
    slots[2 * i] = 0;
    this.used--;
    const capacity = this.mask + 1;
    if (capacity > this.minCapacity && this.used < capacity / 8) this.resize(capacity / 2);
    return true;
  }

  clear(): void {
    this.slots = new Float64Array(2 * this.minCapacity);
    this.mask = this.minCapacity - 1;
    this.used = 0;
  }

  private resize(capacity: number): void {
    const old = this.slots;
    this.slots = new Float64Array(2 * capacity);
    this.mask = capacity - 1;
    for (let i = 0; i < old.length; i += 2) if (old[i] !== 0) this.place(old[i] as number, old[i + 1] as number);
  }

  private place(key: number, seq: number): void {
    const { slots, mask } = this;
    let i = homeOf(key, mask);
    while (slots[2 * i] !== 0) i = (i + 1) & mask;
    slots[2 * i] = key;
    slots[2 * i + 1] = seq;
  }
}

/** A key's first slot: the high 32 bits of its hash (`& mask` keeps the low ones of those). */
function homeOf(key: number, mask: number): number {
  return Math.floor(key / 2 ** 20) & mask;
}

/** Two 32-bit multiplicative hashes of the UTF-16 units, mixed, as one non-zero 52-bit number. */
export function hashOf(id: string): number {
  let a = 0x811c9dc5;
  let b = 0x9e3779b9 ^ id.length;
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  const key = (mix(a) >>> 0) * 2 ** 20 + (mix(b) >>> 12);
  return key === 0 ? 1 : key;
}

/** MurmurHash3's finalizer: every input bit moves every output bit. */
function mix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return h ^ (h >>> 16);
}
