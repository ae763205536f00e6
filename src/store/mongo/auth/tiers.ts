import type { Tier } from '../../../model/account.js';
import { AlreadyExists, InUse, NotFound } from '../../auth-store.js';
import type { AuthDb } from './auth-db.js';
import { isDuplicateKey, type TierDoc } from './collections.js';
import { compareText } from './order.js';

/** The tiers (ntfy's plans) a user may be put on, by code (`_id`). */
export class Tiers {
  constructor(private readonly db: AuthDb) {}

  private get tiers() {
    return this.db.collections.tiers;
  }

  async all(): Promise<Tier[]> {
    const tiers = (await this.tiers.find().toArray()).map(toTier);
    return tiers.sort((a, b) => compareText(a.code, b.code));
  }

  async find(code: string): Promise<Tier | undefined> {
    const doc = await this.tiers.findOne({ _id: code });
    return doc ? toTier(doc) : undefined;
  }

  async put(t: Tier, replace: boolean): Promise<void> {
    const { code, ...limits } = t;
    if (replace) {
      await this.tiers.replaceOne({ _id: code }, limits, { upsert: true });
      return;
    }
    try {
      await this.tiers.insertOne({ _id: code, ...limits });
    } catch (err) {
      if (isDuplicateKey(err)) throw new AlreadyExists(`tier ${code} already exists`);
      throw err;
    }
  }

  /**
   * A user put on the tier between the count and the deletion keeps a code no tier has,
   * which reads as no tier (users.ts): the auth-file's foreign key has no counterpart here.
   */
  async remove(code: string): Promise<void> {
    const users = await this.db.collections.users.countDocuments({ tier: code });
    if (users > 0) throw new InUse(`tier ${code} is in use by ${users} user(s)`);
    if ((await this.tiers.deleteOne({ _id: code })).deletedCount === 0) throw new NotFound(`tier ${code} does not exist`);
  }
}

/** Named fields only: what else a document may carry stays out of the port. */
export function toTier(d: TierDoc): Tier {
  return {
    code: d._id,
    name: d.name,
    messageLimit: d.messageLimit,
    messageExpiryDuration: d.messageExpiryDuration,
    emailLimit: d.emailLimit,
    callLimit: d.callLimit,
    reservationLimit: d.reservationLimit,
    attachmentFileSizeLimit: d.attachmentFileSizeLimit,
    attachmentTotalSizeLimit: d.attachmentTotalSizeLimit,
    attachmentExpiryDuration: d.attachmentExpiryDuration,
    attachmentBandwidthLimit: d.attachmentBandwidthLimit,
  };
}
