import type { Receipt, SentEscalation } from '../alerts/receipt.js';

/**
 * A receipt as a row of the SQL backends: the columns their statements select and update
 * on, and the rest, which never changes, as one JSON document.
 */
export interface ReceiptRow {
  id: string;
  topic: string;
  until: number;
  keep_until: number;
  acknowledged_at: number;
  acknowledged_by: string;
  repeats: number;
  sent: string;
  doc: string;
}

type Fixed = Pick<Receipt, 'message' | 'every' | 'callback' | 'escalations' | 'publisher'>;

export function receiptRow(r: Receipt): ReceiptRow {
  const fixed: Fixed = { message: r.message, every: r.every, callback: r.callback, escalations: r.escalations, publisher: r.publisher };
  return {
    id: r.id, topic: r.topic, until: r.until, keep_until: r.keepUntil,
    acknowledged_at: r.acknowledgedAt, acknowledged_by: r.acknowledgedBy, repeats: r.repeats,
    sent: JSON.stringify(r.sent), doc: JSON.stringify(fixed),
  };
}

/** PostgreSQL answers bigint columns as strings. */
export function receiptOf(row: ReceiptRow): Receipt {
  const fixed = JSON.parse(row.doc) as Fixed;
  return {
    ...fixed,
    callback: fixed.callback, // JSON leaves an undefined one out
    id: row.id, topic: row.topic, until: Number(row.until), keepUntil: Number(row.keep_until),
    acknowledgedAt: Number(row.acknowledged_at), acknowledgedBy: row.acknowledged_by, repeats: Number(row.repeats),
    sent: JSON.parse(row.sent) as SentEscalation[],
  };
}

/** The `sent` column after step `step` went out `at`, or undefined when it had. */
export function sentWith(row: Pick<ReceiptRow, 'sent'>, step: number, at: number): string | undefined {
  const sent = JSON.parse(row.sent) as SentEscalation[];
  return sent.some((s) => s.step === step) ? undefined : JSON.stringify([...sent, { step, at }]);
}
