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
 *
 * Resizing is incremental: rehashing every entry at once stalled the publish that
 * crossed 70% for 15 ms at 367k entries, 30 ms at 734k, 63 ms at 1.47M. The old table
 * stays until each add and remove has moved `step` of its slots over (and the rest of the
 * run they end in, so what stays behind is whole runs, still probed as before); `find`
 * and `remove` look in both. A step of 128 costs an add about 7 µs (the longest run at
 * 70% of 2M slots: 154) and moves 2M slots in 16k adds. The next resize is at least
 * C/16 adds and removes away (C the old capacity; the closest: a shrink to C/2 at C/8
 * full, then one at C/16), so any step ≥ 16 ends a migration before another is due; a
 * smaller one (tests) finishes it at once then.
 */
export class IdIndex {
  private slots: Float64Array;
  /** The table being emptied into `slots`, from slot `moved` on; undefined when none is. */
  private old: Float64Array | undefined;
  private moved = 0;
  private used = 0;

  constructor(
    private readonly minCapacity = 1024,
    private readonly step = 128,
  ) {
    this.slots = new Float64Array(2 * minCapacity);
  }

  get size(): number {
    return this.used;
  }

  add(id: string, seq: number): void {
    if (this.used + 1 > 0.7 * capacityOf(this.slots)) this.resize(2 * capacityOf(this.slots));
    if (this.old) this.migrate(this.step);
    place(this.slots, hashOf(id), seq);
    this.used++;
  }

  /** The first candidate seq of `id` that `accept` takes (it checks the row), or undefined. */
  find(id: string, accept: (seq: number) => boolean): number | undefined {
    const key = hashOf(id);
    return findIn(this.slots, key, accept) ?? (this.old && findIn(this.old, key, accept));
  }

  /** Forgets `id` at `seq`; false when it was not held. */
  remove(id: string, seq: number): boolean {
    const key = hashOf(id);
    if (!removeFrom(this.slots, key, seq) && !(this.old && removeFrom(this.old, key, seq))) return false;
    this.used--;
    const capacity = capacityOf(this.slots);
    if (capacity > this.minCapacity && this.used < capacity / 8) this.resize(capacity / 2);
    if (this.old) this.migrate(this.step);
    return true;
  }

  clear(): void {
    this.slots = new Float64Array(2 * this.minCapacity);
    this.old = undefined;
    this.used = 0;
  }

  private resize(capacity: number): void {
    if (this.old) this.migrate(Infinity);
    this.old = this.slots;
    this.moved = 0;
    this.slots = new Float64Array(2 * capacity);
  }

  /** Moves `count` old slots over, then the rest of the run the last one is in. */
  private migrate(count: number): void {
    const old = this.old as Float64Array;
    const [capacity, until] = [capacityOf(old), this.moved + count];
    let i = this.moved;
    for (; i < capacity && (i < until || old[2 * i] !== 0); i++) {
      if (old[2 * i] === 0) continue;
      place(this.slots, old[2 * i] as number, old[2 * i + 1] as number);
      old[2 * i] = 0;
    }
    this.moved = i;
    if (i === capacity) this.old = undefined;
  }
}

function capacityOf(slots: Float64Array): number {
  return slots.length / 2;
}

function findIn(slots: Float64Array, key: number, accept: (seq: number) => boolean): number | undefined {
  const mask = capacityOf(slots) - 1;
  for (let i = homeOf(key, mask); slots[2 * i] !== 0; i = (i + 1) & mask) {
    const seq = slots[2 * i + 1] as number;
    if (slots[2 * i] === key && accept(seq)) return seq;
  }
  return undefined;
}

function removeFrom(slots: Float64Array, key: number, seq: number): boolean {
  const mask = capacityOf(slots) - 1;
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
  return true;
}

function place(slots: Float64Array, key: number, seq: number): void {
  const mask = capacityOf(slots) - 1;
  let i = homeOf(key, mask);
  while (slots[2 * i] !== 0) i = (i + 1) & mask;
  slots[2 * i] = key;
  slots[2 * i + 1] = seq;
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
