import type { Tier } from '../model/account.js';

/** A tier as the SQL stores keep it, one column per limit: SQLite's auth-file and PostgreSQL. */
export interface TierRow {
  code: string;
  name: string;
  message_limit: number;
  message_expiry_duration: number;
  email_limit: number;
  call_limit: number;
  reservation_limit: number;
  attachment_file_size_limit: number;
  attachment_total_size_limit: number;
  attachment_expiry_duration: number;
  attachment_bandwidth_limit: number;
}

export function toTier(r: TierRow): Tier {
  return {
    code: r.code,
    name: r.name,
    messageLimit: r.message_limit,
    messageExpiryDuration: r.message_expiry_duration,
    emailLimit: r.email_limit,
    callLimit: r.call_limit,
    reservationLimit: r.reservation_limit,
    attachmentFileSizeLimit: r.attachment_file_size_limit,
    attachmentTotalSizeLimit: r.attachment_total_size_limit,
    attachmentExpiryDuration: r.attachment_expiry_duration,
    attachmentBandwidthLimit: r.attachment_bandwidth_limit,
  };
}
