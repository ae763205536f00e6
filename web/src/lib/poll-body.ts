import type { Message } from './message.js';

/** A poll's events as the app keeps them: replay_gap markers, and the newest of the rest. */
export interface PollEvents {
  gap: boolean;
  /** Oldest first. */
  events: Message[];
}

/**
 * Reads a poll response (JSON lines) as it streams in, keeping only its newest events
 * that fit in `limit` characters: the app stores no more history than that (history.ts),
 * and a server with a large cache (ntfy keeps 12 hours of a busy topic), or another server
 * that sends without end, would otherwise be held whole in the page. A line longer than
 * `limit` is skipped, never buffered. A line that is not JSON fails the read, as before.
 */
export async function newestEvents(res: Response, limit: number): Promise<PollEvents> {
  const kept: { event: Message; size: number }[] = [];
  let first = 0;
  let size = 0;
  let gap = false;
  const take = (line: string): void => {
    if (!line.trim()) return;
    const event = JSON.parse(line) as Message;
    if (event.event === 'replay_gap') {
      gap = true;
      return;
    }
    kept.push({ event, size: line.length });
    size += line.length;
    while (size > limit) size -= (kept[first++] as { size: number }).size;
    // Forget the dropped ones now and then, not on every line: splice moves what is left.
    if (first > 1024 && first * 2 > kept.length) first -= kept.splice(0, first).length;
  };
  let rest = '';
  let skipping = false;
  const reader = (res.body ?? new Blob([]).stream()).pipeThrough(new TextDecoderStream()).getReader();
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    const lines = (rest + chunk.value).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) {
      if (!skipping) take(line);
      skipping = false;
    }
    if (rest.length > limit) {
      rest = '';
      skipping = true;
    }
  }
  if (!skipping) take(rest);
  return { gap, events: kept.slice(first).map((k) => k.event) };
}
