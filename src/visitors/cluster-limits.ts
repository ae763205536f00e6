import { randomUUID } from 'node:crypto';
import type { SpendLedger, SpendReport, VisitorSpend } from '../store/spend-ledger.js';
import type { Cluster, Visitor, Visitors } from './visitors.js';

export interface ClusterLimitsOptions {
  /** This node's name in the reports; a fresh one per process by default. */
  node?: string;
  /** How often the node reports and reads the others' reports. */
  everyMs?: number;
  /** Every this many reports, a full one (see SpendReport). */
  fullEvery?: number;
  /** A node unheard of this long holds no subscriptions any more (it stopped, or died). */
  silentMs?: number;
  now?: () => number;
  onError?: (err: unknown) => void;
}

interface Node {
  heardAt: number;
  holds: Map<string, number>;
}

/**
 * Visitor limits across the nodes that share a store: each node keeps enforcing them on
 * its own, with no round trip on any request, and every `everyMs` (250 ms) reports what
 * its visitors spent and reads what they spent on the other nodes (SpendLedger), charging
 * that to its own visitors, past their allowance if need be (Visitor.charge).
 *
 * What that allows: a node hears of spending elsewhere within about two periods (its
 * own and the reporter's) plus a database round trip. Spending within that lag is not
 * yet known, so across N nodes a visitor can get up to N bursts at once where one node
 * grants one, and daily counts can pass their limit by what the other nodes granted in
 * the lag; sustained spending is held to the configured rate, because reported spending
 * is charged as debt. Subscriptions are counted per node and summed (a node's count is
 * what it last reported, dropped once it is silent for `silentMs`). A visitor's first
 * request on a node is never reported (see Visitor.unreported), so a flood of one-request
 * addresses costs the ledger nothing. Attachment storage is counted by the shared
 * attachment store, so it needs nothing here.
 */
export class ClusterLimits implements Cluster {
  readonly node: string;
  private readonly everyMs: number;
  private readonly fullEvery: number;
  private readonly silentMs: number;
  private readonly now: () => number;
  private readonly onError: (err: unknown) => void;
  private unreported: Visitor[] = [];
  /** A report the ledger failed to record, sent again with the next. */
  private unsent: SpendReport | undefined;
  private readonly nodes = new Map<string, Node>();
  /** Per key, the subscriptions held on the other nodes, summed over `nodes`. */
  private readonly heldElsewhere = new Map<string, number>();
  private reports = 0;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly visitors: Visitors,
    private readonly ledger: SpendLedger,
    options: ClusterLimitsOptions = {},
  ) {
    this.node = options.node ?? randomUUID();
    this.everyMs = options.everyMs ?? 250;
    this.fullEvery = options.fullEvery ?? 20;
    this.silentMs = options.silentMs ?? 10_000;
    this.now = options.now ?? Date.now;
    this.onError = options.onError ?? (() => undefined);
    visitors.share(this);
  }

  report(visitor: Visitor): void {
    this.unreported.push(visitor);
  }

  elsewhere(key: string): number {
    return this.heldElsewhere.get(key) ?? 0;
  }

  /** Exchanges reports every `everyMs` until `stop`. */
  start(): void {
    const next = (): void => {
      if (this.stopped) return;
      this.timer = setTimeout(() => {
        this.running = this.exchange().catch(this.onError).finally(next);
      }, this.everyMs);
      this.timer.unref();
    };
    next();
  }

  /** Stops exchanging, after a last report of what was spent here (so no spending goes unreported). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
    await this.exchange().catch(this.onError);
  }

  /** One exchange: this node's report out, the others' in. */
  async exchange(): Promise<void> {
    const report = this.collect();
    let theirs: SpendReport[];
    try {
      theirs = await this.ledger.exchange(report);
    } catch (err) {
      this.unsent = report;
      throw err;
    }
    for (const r of theirs) this.apply(r);
    this.forgetSilent();
  }

  private collect(): SpendReport {
    const full = this.reports++ % this.fullEvery === 0;
    const spends: VisitorSpend[] = this.unsent?.spends ?? [];
    const holds = new Map<string, number>(this.unsent?.holds.map((h) => [h.key, h.subscriptions]));
    this.unsent = undefined;
    for (const visitor of this.unreported) {
      const spend = visitor.unreported;
      if (!spend) continue; // listed twice: reported already
      visitor.unreported = undefined;
      if (spend.requests + spend.messages + spend.emails + spend.bytes + (spend.calls ?? 0) > 0) spends.push({ key: visitor.key, ...spend });
      holds.set(visitor.key, visitor.subscriptions);
    }
    this.unreported = [];
    if (full) for (const visitor of this.visitors.holding()) holds.set(visitor.key, visitor.subscriptions);
    return { node: this.node, full, spends, holds: Array.from(holds, ([key, subscriptions]) => ({ key, subscriptions })) };
  }

  private apply(report: SpendReport): void {
    for (const spend of report.spends) this.visitors.charge(spend.key, spend);
    let node = this.nodes.get(report.node);
    if (!node) this.nodes.set(report.node, (node = { heardAt: 0, holds: new Map() }));
    node.heardAt = this.now();
    const holds = new Map(report.holds.map((h) => [h.key, h.subscriptions]));
    if (report.full) this.replaceHolds(node, holds);
    else for (const [key, count] of holds) this.setHold(node, key, count);
  }

  private replaceHolds(node: Node, holds: Map<string, number>): void {
    for (const key of node.holds.keys()) if (!holds.has(key)) this.setHold(node, key, 0);
    for (const [key, count] of holds) this.setHold(node, key, count);
  }

  private setHold(node: Node, key: string, count: number): void {
    const sum = (this.heldElsewhere.get(key) ?? 0) - (node.holds.get(key) ?? 0) + count;
    if (count > 0) node.holds.set(key, count);
    else node.holds.delete(key);
    if (sum > 0) this.heldElsewhere.set(key, sum);
    else this.heldElsewhere.delete(key);
  }

  private forgetSilent(): void {
    const now = this.now();
    for (const [name, node] of this.nodes) {
      if (now - node.heardAt < this.silentMs) continue;
      this.replaceHolds(node, new Map());
      this.nodes.delete(name);
    }
  }
}
