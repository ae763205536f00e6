/** A message a replay may return, at its position in the log. */
export interface Found {
  pos: number;
  id: string;
  time: number;
  json: string;
  attachment?: true;
}

export function byTimeThenPosition(a: Pick<Found, 'time' | 'pos'>, b: Pick<Found, 'time' | 'pos'>): number {
  return a.time - b.time || a.pos - b.pos;
}

interface Sized {
  found: Found;
  bytes: number;
}

/**
 * The newest messages (by time, then position) whose JSON fits `maxBytes`, chosen as the
 * log's messages stream past in any order, holding no more than those and the one offered:
 * the kept ones in a min-heap, the oldest dropped while they are over. A message not newer
 * than one dropped is dropped too, so what is kept is exactly what sorting them all and
 * taking the newest that fit would keep — without ever holding more than `maxBytes`.
 */
export class NewestWithin {
  private readonly heap: Sized[] = [];
  private bytes = 0;
  /** The newest message dropped so far: each later drop is newer, as it was kept after it. */
  private floor: Found | undefined;

  constructor(private readonly maxBytes: number) {}

  /** Older messages were left out to respect maxBytes. */
  get truncated(): boolean {
    return this.floor !== undefined;
  }

  offer(found: Found): void {
    if (this.floor && byTimeThenPosition(found, this.floor) <= 0) return;
    const bytes = Buffer.byteLength(found.json);
    this.push({ found, bytes });
    this.bytes += bytes;
    while (this.bytes > this.maxBytes) {
      const oldest = this.pop();
      this.bytes -= oldest.bytes;
      this.floor = oldest.found;
    }
  }

  /** What is kept, oldest first. */
  kept(): Found[] {
    return this.heap.map((s) => s.found).sort(byTimeThenPosition);
  }

  private push(item: Sized): void {
    const heap = this.heap;
    let i = heap.push(item) - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (byTimeThenPosition((heap[parent] as Sized).found, item.found) <= 0) break;
      heap[i] = heap[parent] as Sized;
      i = parent;
    }
    heap[i] = item;
  }

  /** Removes the oldest (the heap is never empty here: its bytes are over maxBytes). */
  private pop(): Sized {
    const heap = this.heap;
    const top = heap[0] as Sized;
    const last = heap.pop() as Sized;
    if (heap.length === 0) return top;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= heap.length) break;
      const right = left + 1;
      const child = right < heap.length && byTimeThenPosition((heap[right] as Sized).found, (heap[left] as Sized).found) < 0 ? right : left;
      if (byTimeThenPosition((heap[child] as Sized).found, last.found) >= 0) break;
      heap[i] = heap[child] as Sized;
      i = child;
    }
    heap[i] = last;
    return top;
  }
}
