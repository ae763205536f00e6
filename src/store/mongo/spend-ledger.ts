import type { Collection, Db, ObjectId } from 'mongodb';
import type { SpendLedger, SpendReport } from '../spend-ledger.js';
import { ensureIndexes } from './indexes.js';
import { collection } from './concerns.js';

interface ReportDocument extends SpendReport {
  _id?: ObjectId;
  /** The writer's clock when it recorded the report. */
  at: Date;
}

/** Nodes' clocks may differ by this much (NTP keeps them within milliseconds): a read reaches this far back. */
const clockSkewMs = 5_000;
/** Reports older than this are deleted (by any node: deleting is idempotent, no claim needed). */
const keepMs = 60_000;
/** Spends per document, far below MongoDB's 16 MB per document. */
const spendsPerDocument = 5_000;

/**
 * The spend ledger on MongoDB: one ordinary collection of report documents, inserted by
 * their node and never changed. A node reads the others' reports by time, reaching back
 * `clockSkewMs` before its previous read and leaving out the ids it has read already:
 * ordering by the writer's clock would miss a report written by a node whose clock is
 * behind, and a server-side order of inserts (a capped collection's) would need a tailing
 * cursor, more machinery than a few reports a second need. Each node's reports come back
 * in its order, by ObjectId (made by the writer's driver: time, then a per-process counter).
 */
export class MongoSpendLedger implements SpendLedger {
  /** Reports read within the reach of the next read: their writer's time, by id. */
  private readonly seen = new Map<ObjectId, number>();
  private readFrom: number;
  private exchanges = 0;

  private constructor(
    private readonly reports: Collection<ReportDocument>,
    private readonly now: () => number,
  ) {
    this.readFrom = now() - clockSkewMs;
  }

  static async open(db: Db, now: () => number = Date.now): Promise<MongoSpendLedger> {
    const reports = collection<ReportDocument>(db, 'spend_reports');
    await ensureIndexes(reports, [{ key: { at: 1 } }]);
    return new MongoSpendLedger(reports, now);
  }

  async exchange(report: SpendReport): Promise<SpendReport[]> {
    const now = this.now();
    await this.reports.insertMany(documentsOf(report, new Date(now)), { ordered: true });
    const from = this.readFrom;
    this.readFrom = now - clockSkewMs;
    const found = await this.reports
      .find({ node: { $ne: report.node }, at: { $gt: new Date(from) }, _id: { $nin: [...this.seen.keys()] } })
      .sort({ _id: 1 })
      .toArray();
    for (const [id, at] of this.seen) if (at <= this.readFrom) this.seen.delete(id);
    for (const doc of found) this.seen.set(doc._id as ObjectId, doc.at.getTime());
    if (++this.exchanges % 40 === 0) await this.reports.deleteMany({ at: { $lt: new Date(now - keepMs) } });
    return found.map(({ node, full, spends, holds }) => ({ node, full, spends, holds }));
  }

  async close(): Promise<void> {
    // The client belongs to the caller.
  }
}

/**
 * A report as documents of at most `spendsPerDocument` spends each, in order. Only the
 * first carries the holds and is full: a reader applies the parts in order, so the spends
 * add up all the same.
 */
function documentsOf(report: SpendReport, at: Date): ReportDocument[] {
  const docs: ReportDocument[] = [];
  for (let i = 0; i === 0 || i < report.spends.length; i += spendsPerDocument) {
    const first = i === 0;
    docs.push({ node: report.node, at, full: first && report.full, spends: report.spends.slice(i, i + spendsPerDocument), holds: first ? report.holds : [] });
  }
  return docs;
}
