import { errors } from '../../model/errors.js';

/**
 * The distinct topics of a subscription's `a,b,a` list, in the order first named, before
 * anything uses them: a topic named twice would be authorized, admitted, replayed and
 * delivered twice (issue 33: one poll naming a topic 1,500 times loaded its replay 1,500
 * times). 40090 past `limit` distinct topics (subscription-topic-limit), found as soon as
 * the first one past it is.
 */
export function topicList(list: string, limit: number): string[] {
  const topics = new Set<string>();
  for (const topic of list.split(',')) {
    topics.add(topic);
    if (topics.size > limit) throw errors.tooManyTopicsInSubscription;
  }
  return [...topics];
}
