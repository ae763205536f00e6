import type { Collection, Db } from 'mongodb';
import type { Receipt } from '../../alerts/receipt.js';
import type { ReceiptStore } from '../receipt-store.js';
import { collection } from './concerns.js';
import { ensureIndexes } from './indexes.js';

type ReceiptDocument = Omit<Receipt, 'id' | 'callback'> & { _id: string; callback: string | null };

/**
 * The ReceiptStore on MongoDB: one document per alert in `receipts`, keyed by its id.
 * Each change is one conditional updateOne (findOneAndUpdate), so of two nodes racing for
 * the same repeat, step or acknowledgement exactly one wins.
 */
export class MongoReceiptStore implements ReceiptStore {
  private constructor(private readonly receipts: Collection<ReceiptDocument>) {}

  static async open(db: Db): Promise<MongoReceiptStore> {
    const receipts = collection<ReceiptDocument>(db, 'receipts');
    await ensureIndexes(receipts, [{ key: { keepUntil: 1 } }]);
    return new MongoReceiptStore(receipts);
  }

  async add({ id, callback, ...rest }: Receipt): Promise<void> {
    // undefined would be dropped from the document; null keeps the field's shape.
    await this.receipts.insertOne({ _id: id, callback: callback ?? null, ...rest });
  }

  async get(id: string): Promise<Receipt | undefined> {
    return receiptOf(await this.receipts.findOne({ _id: id }));
  }

  async acknowledge(id: string, by: string, at: number): Promise<{ receipt: Receipt; first: boolean } | undefined> {
    const changed = receiptOf(await this.receipts.findOneAndUpdate({ _id: id, acknowledgedAt: 0 }, { $set: { acknowledgedAt: at, acknowledgedBy: by } }, { returnDocument: 'after' }));
    if (changed) return { receipt: changed, first: true };
    const receipt = await this.get(id);
    return receipt && { receipt, first: false };
  }

  async repeated(id: string, n: number, now: number): Promise<Receipt | undefined> {
    return receiptOf(await this.receipts.findOneAndUpdate({ _id: id, repeats: n, acknowledgedAt: 0, until: { $gte: now } }, { $inc: { repeats: 1 } }, { returnDocument: 'after' }));
  }

  async escalated(id: string, step: number, at: number): Promise<Receipt | undefined> {
    return receiptOf(await this.receipts.findOneAndUpdate({ _id: id, acknowledgedAt: 0, 'sent.step': { $ne: step } }, { $push: { sent: { step, at } } }, { returnDocument: 'after' }));
  }

  async prune(now: number): Promise<number> {
    return (await this.receipts.deleteMany({ keepUntil: { $lt: now } })).deletedCount;
  }
}

function receiptOf(doc: ReceiptDocument | null): Receipt | undefined {
  if (!doc) return undefined;
  const { _id, callback, ...rest } = doc;
  return { ...rest, id: _id, callback: callback ?? undefined };
}
