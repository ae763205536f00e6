import type { Tier } from './account.js';
import { parseDuration, parseSize } from './units.js';

/**
 * A tier's limits as `tocsin tier add|change` and the admin API's /v1/tiers both take them:
 * one table of flag, Tier field, JSON key (ntfy's `limits` keys of /v1/account) and the
 * default `tier add` uses (ntfy's cmd/tier.go), so the two check values the same way.
 */
export const tierLimits = [
  { flag: 'message-limit', field: 'messageLimit', key: 'messages', kind: 'int', fallback: '5000', doc: 'daily message limit' },
  { flag: 'message-expiry-duration', field: 'messageExpiryDuration', key: 'messages_expiry_duration', kind: 'duration', fallback: '12h', doc: 'duration after which messages are deleted' },
  { flag: 'email-limit', field: 'emailLimit', key: 'emails', kind: 'int', fallback: '20', doc: 'daily email limit' },
  { flag: 'call-limit', field: 'callLimit', key: 'calls', kind: 'int', fallback: '0', doc: 'daily phone call limit' },
  { flag: 'reservation-limit', field: 'reservationLimit', key: 'reservations', kind: 'int', fallback: '3', doc: 'topic reservation limit' },
  { flag: 'attachment-file-size-limit', field: 'attachmentFileSizeLimit', key: 'attachment_file_size', kind: 'size', fallback: '15M', doc: 'per-attachment file size limit' },
  { flag: 'attachment-total-size-limit', field: 'attachmentTotalSizeLimit', key: 'attachment_total_size', kind: 'size', fallback: '100M', doc: 'total size limit of attachments for the user' },
  { flag: 'attachment-expiry-duration', field: 'attachmentExpiryDuration', key: 'attachment_expiry_duration', kind: 'duration', fallback: '6h', doc: 'duration after which attachments are deleted' },
  { flag: 'attachment-bandwidth-limit', field: 'attachmentBandwidthLimit', key: 'attachment_bandwidth', kind: 'size', fallback: '1G', doc: 'daily bandwidth limit for attachment uploads/downloads' },
] as const;

export type TierLimit = (typeof tierLimits)[number];

/** ntfy's AllowedTier. */
export const tierCodePattern = /^[-_A-Za-z0-9]{1,64}$/;

/** A tier's display name: at most this long, so the list of tiers stays small. */
export const tierNameMaxLength = 256;

/**
 * A limit's value from the CLI's text (`5000`, `12h`, `15M`) or the API's whole number
 * (seconds, bytes); undefined when neither, negative, or past what a number holds exactly.
 */
export function limitValue(limit: TierLimit, value: string | number): number | undefined {
  let parsed: number;
  try {
    if (typeof value === 'number') parsed = value;
    else if (limit.kind === 'duration') parsed = Math.floor(parseDuration(value) / 1000);
    else if (limit.kind === 'size') parsed = parseSize(value);
    else parsed = /^\d+$/.test(value) ? Number(value) : NaN;
  } catch {
    return undefined;
  }
  return Number.isSafeInteger(parsed) && parsed >= 0 ? parsed : undefined;
}

/** A new tier with `tocsin tier add`'s default (ntfy's) for every limit. */
export function defaultTier(code: string, name: string): Tier {
  const tier = { code, name } as Tier;
  for (const l of tierLimits) tier[l.field] = limitValue(l, l.fallback) as number;
  return tier;
}

/** A tier's limits in the JSON shape of /v1/tiers (and of /v1/account's `limits`). */
export function limitsJson(tier: Tier): Record<TierLimit['key'], number> {
  return Object.fromEntries(tierLimits.map((l) => [l.key, tier[l.field]])) as Record<TierLimit['key'], number>;
}
