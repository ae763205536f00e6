import type { Tier } from '../../../model/account.js';
import { toTier, type TierRow } from '../../tier-row.js';
import { AlreadyExists, InUse, NotFound } from '../../auth-store.js';
import type { AuthDb } from './auth-db.js';

const columns = `code, name, message_limit, message_expiry_duration, email_limit, call_limit, reservation_limit,
  attachment_file_size_limit, attachment_total_size_limit, attachment_expiry_duration, attachment_bandwidth_limit`;

/** The tiers (ntfy's plans) a user may be put on, by code. */
export class Tiers {
  constructor(private readonly db: AuthDb) {}

  async all(): Promise<Tier[]> {
    return (await this.db.rows<TierRow>(`SELECT ${columns} FROM tiers ORDER BY code`)).map(toTier);
  }

  async find(code: string): Promise<Tier | undefined> {
    const [row] = await this.db.rows<TierRow>(`SELECT ${columns} FROM tiers WHERE code = $1`, [code]);
    return row && toTier(row);
  }

  async put(t: Tier, replace: boolean): Promise<void> {
    const onConflict = replace
      ? `DO UPDATE SET ${columns.split(',').slice(1).map((c) => `${c.trim()} = excluded.${c.trim()}`).join(', ')}`
      : 'DO NOTHING';
    const values = [t.code, t.name, t.messageLimit, t.messageExpiryDuration, t.emailLimit, t.callLimit, t.reservationLimit, t.attachmentFileSizeLimit, t.attachmentTotalSizeLimit, t.attachmentExpiryDuration, t.attachmentBandwidthLimit];
    const put = await this.db.change((c) => c.query(`INSERT INTO tiers (${columns}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (code) ${onConflict}`, values));
    if (put.rowCount === 0) throw new AlreadyExists(`tier ${t.code} already exists`);
  }

  async remove(code: string): Promise<void> {
    await this.db.change(async (c) => {
      const users = (await this.db.rows<{ n: number }>('SELECT count(*) AS n FROM users WHERE tier = $1', [code], c))[0]?.n ?? 0;
      if (users > 0) throw new InUse(`tier ${code} is in use by ${users} user(s)`);
      if ((await c.query('DELETE FROM tiers WHERE code = $1', [code])).rowCount === 0) throw new NotFound(`tier ${code} does not exist`);
    });
  }
}
