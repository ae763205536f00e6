import type { Config } from '../../config/schema.js';
import type { User } from '../../model/access.js';
import { dailyMessageLimit } from '../../visitors/visitors.js';

const dayMs = 86_400_000;

/** `limits` of GET /v1/account, in ntfy's shape: a tier's, or the visitor limits of server.yml. */
export interface AccountLimits {
  basis: 'ip' | 'tier';
  messages: number;
  messages_expiry_duration: number;
  emails: number;
  calls: number;
  reservations: number;
  attachment_total_size: number;
  attachment_file_size: number;
  attachment_expiry_duration: number;
  attachment_bandwidth: number;
}

/**
 * ntfy's tierBasedVisitorLimits / configBasedVisitorLimits: a user on a tier has the
 * tier's limits; everyone else the visitor limits, where the daily message and e-mail
 * limits derive from the replenish intervals unless set.
 */
export function accountLimits(config: Config, user: User | undefined): AccountLimits {
  const tier = user?.tier;
  if (tier) {
    return {
      basis: 'tier',
      messages: tier.messageLimit,
      messages_expiry_duration: tier.messageExpiryDuration,
      emails: tier.emailLimit,
      calls: tier.callLimit,
      reservations: tier.reservationLimit,
      attachment_total_size: tier.attachmentTotalSizeLimit,
      attachment_file_size: tier.attachmentFileSizeLimit,
      attachment_expiry_duration: tier.attachmentExpiryDuration,
      attachment_bandwidth: tier.attachmentBandwidthLimit,
    };
  }
  return {
    basis: 'ip',
    messages: dailyMessageLimit(config),
    messages_expiry_duration: Math.floor(config.cacheDurationMs / 1000),
    emails: Math.floor(dayMs / config.visitorEmailLimitReplenishMs),
    calls: 0,
    reservations: 0,
    attachment_total_size: config.visitorAttachmentTotalSizeLimit,
    attachment_file_size: config.attachmentFileSizeLimit,
    attachment_expiry_duration: Math.floor(config.attachmentExpiryDurationMs / 1000),
    attachment_bandwidth: config.visitorAttachmentDailyBandwidthLimit,
  };
}

/** What the visitor used today, as far as Tocsin counts it. */
export interface Usage {
  messages: number;
  emails: number;
  calls: number;
  reservations: number;
  attachmentTotalSize: number;
}

/** `stats` of GET /v1/account: use and what remains of each limit. */
export function accountStats(limits: AccountLimits, used: Usage): Record<string, number> {
  const left = (limit: number, use: number): number => Math.max(0, limit - use);
  return {
    messages: used.messages,
    messages_remaining: left(limits.messages, used.messages),
    emails: used.emails,
    emails_remaining: left(limits.emails, used.emails),
    calls: used.calls,
    calls_remaining: left(limits.calls, used.calls),
    reservations: used.reservations,
    reservations_remaining: left(limits.reservations, used.reservations),
    attachment_total_size: used.attachmentTotalSize,
    attachment_total_size_remaining: left(limits.attachment_total_size, used.attachmentTotalSize),
  };
}
