import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Figure, Scenario, Sizes } from '../figures.js';
import { percentile } from '../proc.js';
import { startTocsin, type Target } from '../targets.js';

/** A message as a subscriber saw it: its scheduled time and when it arrived (ms). */
interface Arrival {
  id: string;
  dueMs: number;
  arrivedMs: number;
}

/**
 * 6. Scheduled delivery (Tocsin only; the ceiling has no scheduler): how late N messages
 * scheduled for the same few seconds reach a live subscriber, and after a SIGKILL and a
 * restart, how long the overdue ones take to come out, how late the rest are, and that
 * nothing is lost or delivered twice.
 */
export const scheduledScenario: Scenario = async (target, sizes) => {
  if (target.name !== 'tocsin') return [];
  const params = { messages: sizes.scheduledMessages };
  const stream = subscribe(`${target.url}/sched/json`);
  await stream.opened;
  const dueSec = Math.floor(Date.now() / 1000) + sizes.scheduledLeadSeconds;
  await scheduleBatch(target.url, 'sched', sizes.scheduledMessages, dueSec);
  const arrivals = await stream.collect(sizes.scheduledMessages, (sizes.scheduledLeadSeconds + 10) * 1000);
  return [
    ...lateness('scheduled delivery lateness', arrivals, params),
    { scenario: 'scheduled', name: 'scheduled messages delivered', value: distinct(arrivals), unit: 'msgs', better: 'higher', params },
    ...(await afterRestart(sizes)),
  ];
};

async function afterRestart(sizes: Sizes): Promise<Figure[]> {
  const n = sizes.scheduledMessages;
  const params = { messages: n, downSeconds: sizes.scheduledLeadSeconds + 1 };
  const dir = mkdtempSync(join(tmpdir(), 'tocsin-bench-'));
  const settings = ['--cache-file', join(dir, 'cache.db')];
  try {
    const first = await startTocsin({ settings });
    const nowSec = Math.floor(Date.now() / 1000);
    const overdueSec = nowSec + sizes.scheduledLeadSeconds;
    const laterSec = overdueSec + sizes.scheduledLeadSeconds + 4;
    await scheduleBatch(first.url, 'restart', n, overdueSec);
    await scheduleBatch(first.url, 'restart', n, laterSec);
    await first.kill?.();
    await sleep(overdueSec * 1000 + 1000 - Date.now()); // every overdue message fell due while it was down

    const restartedAt = Date.now();
    const second: Target = await startTocsin({ settings });
    try {
      const arrivals = await subscribe(`${second.url}/restart/json?since=all`).collect(2 * n, (laterSec - overdueSec + 10) * 1000);
      const overdue = arrivals.filter((a) => a.dueMs === overdueSec * 1000);
      const catchUp = Math.max(...overdue.map((a) => a.arrivedMs)) - restartedAt;
      return [
        { scenario: 'scheduled', name: 'overdue delivered, from process start', value: catchUp, unit: 'ms', better: 'lower', params },
        ...lateness('lateness after restart', arrivals.filter((a) => a.dueMs === laterSec * 1000), params),
        { scenario: 'scheduled', name: 'delivered after restart', value: distinct(arrivals), unit: 'msgs', better: 'higher', params },
        { scenario: 'scheduled', name: 'duplicates after restart', value: arrivals.length - distinct(arrivals), unit: 'msgs', better: 'lower', params },
      ];
    } finally {
      await second.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function lateness(name: string, arrivals: Arrival[], params: Figure['params']): Figure[] {
  const late = arrivals.map((a) => a.arrivedMs - a.dueMs).sort((a, b) => a - b);
  return [50, 99].map((p) => ({ scenario: 'scheduled', name: `${name} p${p}`, value: percentile(late, p), unit: 'ms', better: 'lower' as const, params }));
}

const distinct = (arrivals: Arrival[]): number => new Set(arrivals.map((a) => a.id)).size;

/** Publishes `n` messages due at `dueSec` (a Unix time), 16 at a time. */
async function scheduleBatch(url: string, topic: string, n: number, dueSec: number): Promise<void> {
  for (let i = 0; i < n; i += 16) {
    const batch = Array.from({ length: Math.min(16, n - i) }, (_, j) =>
      fetch(`${url}/${topic}`, { method: 'POST', body: `scheduled ${i + j}`, headers: { At: String(dueSec) } }).then(async (res) => {
        if (res.status !== 200) throw new Error(`scheduling failed: ${res.status} ${await res.text()}`);
      }),
    );
    await Promise.all(batch);
  }
}

/** A JSON stream subscriber that timestamps each message as its line arrives. */
function subscribe(url: string): { opened: Promise<void>; collect(count: number, timeoutMs: number): Promise<Arrival[]> } {
  const arrivals: Arrival[] = [];
  const controller = new AbortController();
  let markOpened = (): void => undefined;
  const opened = new Promise<void>((resolve) => (markOpened = resolve));
  const reading = (async () => {
    const res = await fetch(url, { signal: controller.signal });
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
      const arrivedMs = Date.now();
      buffer += decoder.decode(chunk, { stream: true });
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        const event = JSON.parse(line) as { id: string; event: string; time: number };
        if (event.event === 'open') markOpened();
        if (event.event === 'message') arrivals.push({ id: event.id, dueMs: event.time * 1000, arrivedMs });
      }
    }
  })().catch(() => undefined);
  return {
    opened,
    async collect(count, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (arrivals.length < count && Date.now() < deadline) await sleep(20);
      // A short wait more: a duplicate would arrive right behind the last message.
      await sleep(500);
      controller.abort();
      await reading;
      return arrivals;
    },
  };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
