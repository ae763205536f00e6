import type { Collection, Db } from 'mongodb';
import { randomId } from '../../model/message.js';
import { endpointsPerAddress, TooManyWebPushSubscriptions, type KeptWebPushSubscription, type WebPushRegistration, type WebPushStore, type WebPushSubscription } from '../webpush-store.js';
import { ensureIndexes } from './indexes.js';
import { collection } from './concerns.js';

interface SubscriptionDocument {
  /** The endpoint: unique by the `_id` index, so an upsert never makes a second document for it. */
  _id: string;
  id: string;
  auth: string;
  p256dh: string;
  userId: string;
  subscriberIp: string;
  topics: string[];
  updatedAt: number;
  /** 0 until an expiry warning was sent. */
  warnedAt: number;
}

const projection = { _id: 1, id: 1, auth: 1, p256dh: 1, userId: 1 } as const;

/**
 * The WebPushStore on MongoDB: one document per endpoint in `webpush_subscriptions`,
 * its topics an array (multikey index; FerretDB 1.24 answers array queries by reading
 * the collection, fine for the few subscriptions of a server's web app users). An upsert
 * is one updateOne: `$setOnInsert` gives a new endpoint its id, so two nodes upserting the
 * same endpoint at once agree on it. The address limit is read before, so nodes racing
 * for the same address may pass it by one each, as ntfy's check does across requests.
 */
export class MongoWebPushStore implements WebPushStore {
  private constructor(private readonly subscriptions: Collection<SubscriptionDocument>) {}

  static async open(db: Db): Promise<MongoWebPushStore> {
    const subscriptions = collection<SubscriptionDocument>(db, 'webpush_subscriptions');
    await ensureIndexes(subscriptions, [{ key: { id: 1 } }, { key: { topics: 1 } }, { key: { subscriberIp: 1 } }, { key: { userId: 1 } }, { key: { updatedAt: 1 } }]);
    return new MongoWebPushStore(subscriptions);
  }

  async upsert({ endpoint, auth, p256dh, userId, subscriberIp, topics }: WebPushRegistration, now: number): Promise<void> {
    const known = await this.subscriptions.findOne({ _id: endpoint }, { projection: { _id: 1 } });
    if (!known && (await this.subscriptions.countDocuments({ subscriberIp })) >= endpointsPerAddress) throw new TooManyWebPushSubscriptions();
    await this.subscriptions.updateOne(
      { _id: endpoint },
      { $set: { auth, p256dh, userId, subscriberIp, topics: [...new Set(topics)], updatedAt: now, warnedAt: 0 }, $setOnInsert: { id: `wps_${randomId(10)}` } },
      { upsert: true },
    );
  }

  /** One upsert that only inserts: a document for the endpoint already there is left as it is. */
  async import({ id, endpoint, auth, p256dh, userId, subscriberIp, topics, updatedAt, warnedAt }: KeptWebPushSubscription): Promise<boolean> {
    const result = await this.subscriptions.updateOne(
      { _id: endpoint },
      { $setOnInsert: { id, auth, p256dh, userId, subscriberIp, topics: [...new Set(topics)], updatedAt, warnedAt } },
      { upsert: true },
    );
    return result.upsertedCount === 1;
  }

  async forTopic(topic: string): Promise<WebPushSubscription[]> {
    return (await this.subscriptions.find({ topics: topic }, { projection }).sort({ _id: 1 }).toArray()).map(subscriptionOf);
  }

  async expiring(before: number): Promise<WebPushSubscription[]> {
    return (await this.subscriptions.find({ warnedAt: 0, updatedAt: { $lte: before } }, { projection }).sort({ _id: 1 }).toArray()).map(subscriptionOf);
  }

  async markWarned(ids: readonly string[], now: number): Promise<void> {
    // By id, one at a time: FerretDB 1.24 answers an $in by reading the whole collection.
    for (const id of ids) await this.subscriptions.updateOne({ id }, { $set: { warnedAt: now } });
  }

  async touch(endpoints: readonly string[], now: number): Promise<void> {
    for (const endpoint of endpoints) await this.subscriptions.updateOne({ _id: endpoint }, { $set: { updatedAt: now, warnedAt: 0 } }); // one at a time, as markWarned
  }

  async removeExpired(before: number): Promise<number> {
    return (await this.subscriptions.deleteMany({ updatedAt: { $lte: before } })).deletedCount;
  }

  async removeByEndpoint(endpoint: string): Promise<void> {
    await this.subscriptions.deleteOne({ _id: endpoint });
  }

  async removeByUser(userId: string): Promise<void> {
    if (userId !== '') await this.subscriptions.deleteMany({ userId });
  }

  /** The client belongs to the other MongoDB stores, which close it. */
  close(): Promise<void> {
    return Promise.resolve();
  }
}

function subscriptionOf(doc: Pick<SubscriptionDocument, '_id' | 'id' | 'auth' | 'p256dh' | 'userId'>): WebPushSubscription {
  return { id: doc.id, endpoint: doc._id, auth: doc.auth, p256dh: doc.p256dh, userId: doc.userId };
}
