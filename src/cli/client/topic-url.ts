import { ClientError } from './client-error.js';

// The server's topic name rule; a comma separates the topics of one subscription.
const topicNames = /^[-_A-Za-z0-9]{1,64}(,[-_A-Za-z0-9]{1,64})*$/;

/**
 * A topic as ntfy's client expands it: a full http(s) URL as is, `host/topic` over https,
 * a bare name (or comma-separated names) under the config's default-host.
 */
export function topicUrl(topic: string, defaultHost: string): string {
  if (/^https?:\/\//.test(topic)) return topic;
  if (topic.includes('/')) return `https://${topic}`;
  if (!topicNames.test(topic)) throw new ClientError(`invalid topic name: ${topic}`);
  return `${defaultHost.replace(/\/+$/, '')}/${topic}`;
}

/** The URL without its scheme, as ntfy names a subscription in its log lines. */
export function shortUrl(url: string): string {
  return url.replace(/^https?:\/\//, '');
}
