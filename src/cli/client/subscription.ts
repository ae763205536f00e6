import { setTimeout as sleep } from 'node:timers/promises';
import type { Authorization } from './auth.js';
import { Backoff } from './backoff.js';
import { ClientError } from './client-error.js';
import { jsonLines } from './json-lines.js';
import { shortUrl } from './topic-url.js';

/** A message as received: its JSON line as sent, and parsed. */
export interface Received {
  raw: string;
  message: ReceivedMessage;
}

export interface ReceivedMessage {
  id: string;
  time: number;
  event: string;
  topic: string;
  /** Of a replay_gap event: where the replay started. */
  since?: string;
  message?: string;
  title?: string;
  priority?: number;
  tags?: string[];
  click?: string;
}

/** One topic URL (or comma-separated topics) to read, with its query (since, scheduled, filters) and credentials. */
export interface StreamTarget {
  url: string;
  query: Record<string, string>;
  auth: Authorization;
}

/** Cached messages of `target` (`poll=1`): one request, an error when the server refuses it; a replay gap is warned of. */
export async function poll(target: StreamTarget, warn: (text: string) => void): Promise<Received[]> {
  const received: Received[] = [];
  const response = await open(target, { ...target.query, poll: '1' });
  for await (const line of jsonLines(response)) {
    const item = parse(line);
    if (item.message.event === 'message') received.push(item);
    else warnOfGap(target, item.message, warn);
  }
  return received;
}

/** Tocsin's replay_gap event (issue 37): the server dropped messages the replay would have held. */
function warnOfGap(target: StreamTarget, { event, topic, since }: ReceivedMessage, warn: (text: string) => void): void {
  if (event === 'replay_gap') warn(`${shortUrl(target.url)} Some notifications could not be recovered: the server no longer holds messages of ${topic} since ${since ?? '?'}`);
}

// Ids already delivered, to drop a repeat: a replay from an id the server no longer holds
// (a `Cache: no` message, an expired one) starts from the whole cache.
const rememberedIds = 1000;

/**
 * Follows `target` until `signal` aborts, calling `deliver` for each message in order,
 * and warning of each replay gap.
 * A broken connection, a refusal or a server restart is logged and retried with backoff;
 * the retry asks for `since=` the last id seen (before any, the time the server
 * opened the stream), so no message published in between is missed or repeated.
 */
export async function follow(target: StreamTarget, deliver: (item: Received) => Promise<void>, warn: (text: string) => void, signal: AbortSignal): Promise<void> {
  const backoff = new Backoff();
  const seen = new Set<string>();
  let since = target.query.since;
  while (!signal.aborted) {
    try {
      const response = await open(target, since === undefined ? target.query : { ...target.query, since }, signal);
      backoff.reset();
      for await (const line of jsonLines(response)) {
        const item = parse(line);
        const { event, id, time } = item.message;
        if (event === 'open' && since === target.query.since && seen.size === 0) since = String(time);
        warnOfGap(target, item.message, warn);
        if (event !== 'message' && event !== 'message_delete' && event !== 'message_clear') continue;
        if (seen.has(id)) continue;
        since = id;
        remember(seen, id);
        if (event === 'message') await deliver(item);
      }
      if (!signal.aborted) warn(`${shortUrl(target.url)} Connection closed by the server`);
    } catch (err) {
      if (signal.aborted) return;
      warn(`${shortUrl(target.url)} Connection failed: ${(err as Error).message}`);
    }
    await sleep(backoff.next(), undefined, { signal }).catch(() => undefined);
  }
}

function remember(seen: Set<string>, id: string): void {
  seen.add(id);
  if (seen.size > rememberedIds) seen.delete(seen.values().next().value as string);
}

/** Opens `<url>/json?query`; a refusal is an error with the server's JSON body as its message. */
async function open(target: StreamTarget, query: Record<string, string>, signal?: AbortSignal): Promise<AsyncIterable<Uint8Array>> {
  const search = new URLSearchParams(query).toString();
  const headers: Record<string, string> = target.auth === undefined ? {} : { Authorization: target.auth };
  let response: Response;
  try {
    response = await fetch(`${target.url}/json${search ? `?${search}` : ''}`, { headers, signal });
  } catch (err) {
    throw new ClientError(`GET ${target.url}/json: ${causeOf(err)}`);
  }
  if (response.status !== 200) throw new ClientError((await response.text()).trim());
  if (response.body === null) throw new ClientError(`GET ${target.url}/json: no body`);
  return response.body as AsyncIterable<Uint8Array>;
}

/** fetch's "fetch failed" hides the reason (ECONNREFUSED ...) in its cause. */
function causeOf(err: unknown): string {
  const cause = (err as { cause?: unknown }).cause;
  return cause instanceof Error ? cause.message : (err as Error).message;
}

function parse(line: string): Received {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new ClientError(`invalid JSON from the server: ${line.slice(0, 100)}`);
  }
  if (value === null || typeof value !== 'object' || typeof (value as ReceivedMessage).event !== 'string') throw new ClientError(`invalid message from the server: ${line.slice(0, 100)}`);
  return { raw: line, message: value as ReceivedMessage };
}
