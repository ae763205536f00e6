import type { Tier } from '../../../model/account.js';
import { toTier, type TierRow } from '../../tier-row.js';
import { AlreadyExists, InUse, NotFound } from '../../auth-store.js';
import type { AuthFile } from './file.js';

/** The tiers (ntfy's plans) a user may be put on, by code. */
export class Tiers {
  constructor(private readonly file: AuthFile) {}

  all(): Tier[] {
    return (this.file.sql('SELECT * FROM tiers ORDER BY code').all() as TierRow[]).map(toTier);
  }

  find(code: string): Tier | undefined {
    const row = this.file.sql('SELECT * FROM tiers WHERE code = ?').get(code) as TierRow | undefined;
    return row && toTier(row);
  }

  put(t: Tier, replace: boolean): void {
    const verb = replace ? 'INSERT OR REPLACE' : 'INSERT OR IGNORE';
    const changes = this.file.write(
      `${verb} INTO tiers (code, name, message_limit, message_expiry_duration, email_limit, call_limit, reservation_limit,
         attachment_file_size_limit, attachment_total_size_limit, attachment_expiry_duration, attachment_bandwidth_limit)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      t.code, t.name, t.messageLimit, t.messageExpiryDuration, t.emailLimit, t.callLimit, t.reservationLimit,
      t.attachmentFileSizeLimit, t.attachmentTotalSizeLimit, t.attachmentExpiryDuration, t.attachmentBandwidthLimit,
    ).changes;
    if (changes === 0) throw new AlreadyExists(`tier ${t.code} already exists`);
  }

  remove(code: string): void {
    const users = this.file.sql('SELECT COUNT(*) FROM users WHERE tier = ?').pluck().get(code) as number;
    if (users > 0) throw new InUse(`tier ${code} is in use by ${users} user(s)`);
    if (this.file.write('DELETE FROM tiers WHERE code = ?', code).changes === 0) throw new NotFound(`tier ${code} does not exist`);
  }
}
