import type { Tier } from '../../../src/model/account.js';

export const pro: Tier = {
  code: 'pro', name: 'Pro', messageLimit: 10_000, messageExpiryDuration: 86_400, emailLimit: 50, callLimit: 5, reservationLimit: 3,
  attachmentFileSizeLimit: 100 << 20, attachmentTotalSizeLimit: 1 << 30, attachmentExpiryDuration: 21_600, attachmentBandwidthLimit: 5 << 30,
};
