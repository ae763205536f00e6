import { errors } from '../../model/errors.js';
import { isMessageId, nowSeconds } from '../../model/message.js';
import { parsePriority } from '../../model/priority.js';
import { parseDuration } from '../../model/units.js';
import type { MessageFilter } from '../../operators/match-filter.js';
import type { Since } from '../../store/message-cache.js';
import { boolParam, listParam, param } from '../http/params.js';
import type { RequestInfo } from '../http/request.js';

export interface SubscribeParams {
  poll: boolean;
  since: Since;
  scheduled: boolean;
  filter: MessageFilter;
}

export function parseSubscribe(req: RequestInfo): SubscribeParams {
  const poll = boolParam(req, 'poll', false);
  return {
    poll,
    since: parseSince(param(req, 'since') || lastEventId(req), poll),
    scheduled: boolParam(req, 'scheduled', false),
    filter: parseFilter(req),
  };
}

/**
 * The id of the last event a reconnecting `EventSource` saw (the SSE frames' `id:` lines):
 * it resumes after that message, as `since=<id>` does; an explicit `since` wins.
 */
function lastEventId(req: RequestInfo): string {
  return req.headers.get('last-event-id')?.trim() ?? '';
}

/** ntfy's parseSince: keywords, then a message id, a Unix time, or a duration back from now. */
export function parseSince(value: string, poll: boolean): Since {
  switch (value) {
    case '':
      return poll ? { kind: 'all' } : { kind: 'none' };
    case 'all':
    case 'latest':
    case 'none':
      return { kind: value };
  }
  if (isMessageId(value)) return { kind: 'id', id: value };
  if (/^\d+$/.test(value)) return { kind: 'time', time: Number(value) };
  try {
    return { kind: 'time', time: nowSeconds() - Math.floor(parseDuration(value) / 1000) };
  } catch {
    throw errors.sinceInvalid;
  }
}

function parseFilter(req: RequestInfo): MessageFilter {
  const filter: MessageFilter = {};
  const id = param(req, 'id');
  const message = param(req, 'message');
  const title = param(req, 'title');
  const priorities = listParam(req, 'priority').map((p) => parsePriority(p)).filter((p) => p !== 0);
  const tags = listParam(req, 'tags');
  if (id) filter.id = id;
  if (message) filter.message = message;
  if (title) filter.title = title;
  if (priorities.length > 0) filter.priorities = priorities;
  if (tags.length > 0) filter.tags = tags;
  return filter;
}
