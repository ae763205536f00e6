import type { Receipt } from '../alerts/receipt.js';

/**
 * The receipts of alerts repeated until acknowledged (alerts/receipt.ts), kept beside the
 * message cache on every backend, so the nodes sharing a store share them: the jobs that
 * repeat and escalate an alert run on any node and ask here, atomically, whether they
 * still may. Times are Unix seconds, given by the caller. Contract:
 * - `add` stores a new receipt (its id is a new message's, never stored before).
 * - `get` answers the receipt of that id, or undefined.
 * - `acknowledge` marks it acknowledged `at` by `by` unless it was already, answering the
 *   receipt as it now is and whether this call acknowledged it; undefined when absent.
 * - `repeated` counts repeat `n + 1` only if `n` repeats were counted, it is not
 *   acknowledged and `due` (the repeat's time) is not past `until`, answering the receipt
 *   after; otherwise undefined (a run of the same job again, another node's, or an
 *   acknowledgement won).
 * - `escalated` records step `step` sent `at` only if it was not and the receipt is not
 *   acknowledged, answering the receipt after; otherwise undefined.
 * - `prune` drops the receipts whose `keepUntil` is before `now`, answering how many.
 */
export interface ReceiptStore {
  add(receipt: Receipt): Promise<void>;
  get(id: string): Promise<Receipt | undefined>;
  acknowledge(id: string, by: string, at: number): Promise<{ receipt: Receipt; first: boolean } | undefined>;
  repeated(id: string, n: number, due: number): Promise<Receipt | undefined>;
  escalated(id: string, step: number, at: number): Promise<Receipt | undefined>;
  prune(now: number): Promise<number>;
}
