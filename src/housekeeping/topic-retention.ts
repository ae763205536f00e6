import type { TopicRetention } from '../model/topic-retention.js';
import type { MessageCache, Trimmed } from '../store/message-cache.js';

/**
 * Per-topic retention's `max-messages` (issue 37): trims each topic the cache holds that a
 * topic-retention entry limits to its newest messages. The shared housekeeping runs it on
 * one node per manager-interval, after the prune, so a publish never pays for it: a run
 * costs a list of the cached topics and one indexed trim per limited topic.
 *
 * The one place messages are dropped before they expire: what it answers (per topic, how
 * many and the newest one's time) is what a replay-gap record of dropped messages needs.
 */
export async function dropOverMaxMessages(cache: Pick<MessageCache, 'topics' | 'trim'>, retention: TopicRetention): Promise<Map<string, Trimmed>> {
  const dropped = new Map<string, Trimmed>();
  if (!retention.limitsCount) return dropped;
  for (const topic of await cache.topics()) {
    const { maxMessages } = retention.of(topic);
    if (maxMessages === 0) continue;
    const trimmed = await cache.trim(topic, maxMessages);
    if (trimmed.count > 0) dropped.set(topic, trimmed);
  }
  return dropped;
}
