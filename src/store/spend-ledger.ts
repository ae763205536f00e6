/** What one visitor spent on a node since that node last reported it (see visitors/cluster-limits.ts). */
export interface VisitorSpend {
  /** The visitor's key: an address, its network, or `user:NAME`. */
  key: string;
  requests: number;
  messages: number;
  emails: number;
  /** Attachment bandwidth, in bytes. */
  bytes: number;
  /** Phone calls; absent in the reports of nodes from before them (a rolling upgrade). */
  calls?: number;
}

/**
 * One node's report: what its visitors spent since its previous report, and the
 * subscriptions they hold there now (absolute counts, which another node replaces rather
 * than adds). A `full` report lists every visitor holding subscriptions on that node, so
 * a node that joins, or lost reports, learns them all; the others list only the visitors
 * whose count changed (including to 0).
 */
export interface SpendReport {
  node: string;
  full: boolean;
  spends: VisitorSpend[];
  /** Objects, not pairs: FerretDB stores no arrays in arrays. */
  holds: { key: string; subscriptions: number }[];
}

/**
 * The ledger through which nodes sharing a database share their visitors' limits. Each
 * node calls `exchange` every few hundred milliseconds. Contract, for every
 * implementation:
 * - `exchange` records the report, then answers every report of the other nodes recorded
 *   since this instance's previous call (the first call: those of the last few seconds),
 *   each once, each node's in the order that node recorded them. A report that fails to
 *   record makes the call throw, leaving the caller to send it again.
 * - Reports are kept only as long as they can still be read (a minute is plenty).
 * A store that serves one node has no ledger: its limits are the node's own.
 */
export interface SpendLedger {
  exchange(report: SpendReport): Promise<SpendReport[]>;
  close(): Promise<void>;
}
