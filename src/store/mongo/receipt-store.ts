import type { Collection, Db } from 'mongodb';
import type { Receipt } from '../../alerts/receipt.js';
import type { ReceiptStore } from '../receipt-store.js';
import { collection } from './concerns.js';
import { isDuplicateKey } from './duplicate-key.js';
import { ensureIndexes } from './indexes.js';

type ReceiptDocument = Omit<Receipt, 'id' | 'callback'> & { _id: string; callback: string | null };

/** One change of a receipt taken: `<id> repeat <n>`, `<id> step <s>` or `<id> ack`; kept as long as the receipt. */
interface ClaimDocument {
  _id: string;
  keepUntil: number;
}

/**
 * The ReceiptStore on MongoDB: one document per alert in `receipts`, keyed by its id. Each
 * change is first claimed by inserting its name into `receipt_claims`, whose unique `_id`
 * lets exactly one of two nodes racing for the same repeat, step or acknowledgement on:
 * FerretDB 1.24's findOneAndUpdate is a find and then an update, and let both through
 * (seen here). The winner then makes the conditional update.
 */
export class MongoReceiptStore implements ReceiptStore {
  private constructor(
    private readonly receipts: Collection<ReceiptDocument>,
    private readonly claims: Collection<ClaimDocument>,
  ) {}

  static async open(db: Db): Promise<MongoReceiptStore> {
    const receipts = collection<ReceiptDocument>(db, 'receipts');
    const claims = collection<ClaimDocument>(db, 'receipt_claims');
    await ensureIndexes(receipts, [{ key: { keepUntil: 1 } }]);
    await ensureIndexes(claims, [{ key: { keepUntil: 1 } }]);
    return new MongoReceiptStore(receipts, claims);
  }

  /** Whether this call took change `name` of receipt `id` (false: it was taken before, or there is no such receipt). */
  private async claim(id: string, name: string): Promise<boolean> {
    const receipt = await this.receipts.findOne({ _id: id }, { projection: { keepUntil: 1 } });
    if (!receipt) return false;
    try {
      await this.claims.insertOne({ _id: `${id} ${name}`, keepUntil: receipt.keepUntil });
      return true;
    } catch (err) {
      if (isDuplicateKey(err)) return false;
      throw err;
    }
  }

  async add({ id, callback, ...rest }: Receipt): Promise<void> {
    // undefined would be dropped from the document; null keeps the field's shape.
    await this.receipts.insertOne({ _id: id, callback: callback ?? null, ...rest });
  }

  async get(id: string): Promise<Receipt | undefined> {
    return receiptOf(await this.receipts.findOne({ _id: id }));
  }

  async acknowledge(id: string, by: string, at: number): Promise<{ receipt: Receipt; first: boolean } | undefined> {
    const changed = (await this.claim(id, 'ack')) && receiptOf(await this.receipts.findOneAndUpdate({ _id: id, acknowledgedAt: 0 }, { $set: { acknowledgedAt: at, acknowledgedBy: by } }, { returnDocument: 'after' }));
    if (changed) return { receipt: changed, first: true };
    const receipt = await this.get(id);
    return receipt && { receipt, first: false };
  }

  async repeated(id: string, n: number, due: number): Promise<Receipt | undefined> {
    if (!(await this.claim(id, `repeat ${n}`))) return undefined;
    return receiptOf(await this.receipts.findOneAndUpdate({ _id: id, repeats: n, acknowledgedAt: 0, until: { $gte: due } }, { $inc: { repeats: 1 } }, { returnDocument: 'after' }));
  }

  async escalated(id: string, step: number, at: number): Promise<Receipt | undefined> {
    if (!(await this.claim(id, `step ${step}`))) return undefined;
    return receiptOf(await this.receipts.findOneAndUpdate({ _id: id, acknowledgedAt: 0, 'sent.step': { $ne: step } }, { $push: { sent: { step, at } } }, { returnDocument: 'after' }));
  }

  async prune(now: number): Promise<number> {
    const pruned = (await this.receipts.deleteMany({ keepUntil: { $lt: now } })).deletedCount;
    await this.claims.deleteMany({ keepUntil: { $lt: now } });
    return pruned;
  }
}

function receiptOf(doc: ReceiptDocument | null): Receipt | undefined {
  if (!doc) return undefined;
  const { _id, callback, ...rest } = doc;
  return { ...rest, id: _id, callback: callback ?? undefined };
}
