/** What an account carries besides its credentials (ntfy's user.Tier, user.Prefs, user.Reservation). */
import type { Permission } from './access.js';

/** A named set of limits a user can be put on (ntfy's tiers). Durations in seconds, sizes in bytes. */
export interface Tier {
  code: string;
  name: string;
  /** Messages per day. */
  messageLimit: number;
  messageExpiryDuration: number;
  /** E-mails per day. */
  emailLimit: number;
  /** Phone calls per day. */
  callLimit: number;
  reservationLimit: number;
  attachmentFileSizeLimit: number;
  attachmentTotalSizeLimit: number;
  attachmentExpiryDuration: number;
  /** Attachment bytes downloaded per day. */
  attachmentBandwidthLimit: number;
}

/** A subscription the web app keeps in the account, in ntfy's JSON shape. */
export interface AccountSubscription {
  base_url: string;
  topic: string;
  display_name: string | null;
}

/** The account settings, in ntfy's JSON shape (`PATCH /v1/account/settings`). */
export interface Prefs {
  language?: string;
  notification?: { sound?: string; min_priority?: number; delete_after?: number };
  subscriptions?: AccountSubscription[];
}

/** A topic a user owns: they may read and write it, everyone else gets `everyone`. */
export interface Reservation {
  topic: string;
  everyone: Permission;
}
