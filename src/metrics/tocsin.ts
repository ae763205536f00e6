import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { RequestCounts } from './requests.js';
import { subscribeFormats } from '../streams/subscription-tally.js';
import type { ServerState } from './state.js';

/** Tocsin's own metrics: one for every protective action, and the pipeline's timings. */
export function tocsinMetrics(registry: Registry, requests: RequestCounts, state: () => ServerState | undefined) {
  const registers = [registry];
  const slowSubscribers = new Counter({
    name: 'tocsin_slow_subscribers_dropped_total',
    help: 'Subscribers disconnected because subscriber-buffer-limit bytes were queued for them',
    labelNames: ['format'],
    registers,
  });
  // Every format's series exists (at 0) before the first drop.
  for (const format of subscribeFormats) slowSubscribers.inc({ format }, 0);
  // Counted where they happen; each counter is brought up to its count when scraped.
  const countedBy = (name: string, help: string, count: (s: ServerState) => number): Counter =>
    new Counter({
      name,
      help,
      registers,
      collect(this: Counter) {
        const current = state();
        this.reset();
        this.inc(current ? count(current) : 0);
      },
    });
  countedBy('tocsin_visitor_evictions_total', 'Visitors forgotten before their day was up to keep the visitor table within its bound (an address flood)', (s) => s.visitorsEvicted());
  countedBy('tocsin_ban_lines_total', 'Offender lines the abuse ban feed wrote to ban-file (a visitor network past ban-threshold weighted refusals in ban-window)', (s) => s.banLines());
  return {
    slowSubscribers,
    limitHits: new Counter({
      name: 'tocsin_limit_hits_total',
      help: 'Requests refused by a limit (HTTP 413 and 429, and 400 for a template past its time or size and a title or tags past theirs), by ntfy error code: 42901 requests, 42903 subscriptions, 42908 daily messages, 42911 new topics, 41301 attachment size or bandwidth, 40055 template time ...',
      labelNames: ['code'],
      registers,
      collect(this: Counter<'code'>) {
        requests.fillLimitHits(this);
      },
    }),
    batchSize: new Histogram({
      name: 'tocsin_publish_batch_size',
      help: 'Publishes and scheduled releases committed in one cache transaction (group commit)',
      buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024],
      registers,
    }),
    commitLatency: new Histogram({
      name: 'tocsin_commit_latency_seconds',
      help: 'Time of each cache commit of the publish pipeline (one batch of publishes and releases), both backends',
      // SQLite commits in well under a millisecond; MongoDB takes a round trip or more per batch.
      buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    }),
    lostRanges: new Counter({
      name: 'tocsin_lost_ranges_total',
      help: 'Ranges of committed positions this node could no longer deliver live (MongoDB: the capped log dropped them before it read them, or a failover replaced them); each ended every live stream',
      registers,
    }),
    lostPositions: new Counter({
      name: 'tocsin_lost_positions_total',
      help: 'Positions in the lost ranges (tocsin_lost_ranges_total): events, and empty batches, never delivered live by this node',
      registers,
    }),
    chainRetries: new Counter({
      name: 'tocsin_log_chain_retries_total',
      help: 'MongoDB log inserts retried because another writer took the position first (the _id chain)',
      registers,
    }),
    peerLinks: new Gauge({
      name: 'tocsin_cluster_peer_links',
      help: 'Other nodes that announce the batches they commit to this one (cluster-secret)',
      registers,
    }),
    peerBatches: new Counter({
      name: 'tocsin_cluster_peer_batches_total',
      help: 'Log batches other nodes announced to this one, held for its tail instead of read back from the database',
      registers,
    }),
    forwarded: new Counter({
      name: 'tocsin_cluster_forwarded_messages_total',
      help: 'Messages this node had the leader of their log commit (cluster-secret), instead of racing it for the log\'s positions',
      registers,
    }),
    tailLag: new Gauge({
      name: 'tocsin_log_tail_lag_positions',
      help: 'Positions committed to the MongoDB log that this node has not read yet, as its tail last saw them',
      registers,
    }),
    poolWait: new Histogram({
      name: 'tocsin_database_pool_wait_seconds',
      help: 'Time an operation waited for a connection from the MongoDB driver\'s pool (check-outs, failed ones included)',
      buckets: [0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
      registers,
    }),
    dbPingFailures: new Counter({
      name: 'tocsin_db_ping_failures_total',
      help: 'Pings of the database (ntfy_db_ping_seconds) that failed or had no answer within 10 s',
      registers,
    }),
    poolWaiters: new Gauge({
      name: 'tocsin_database_pool_waiters',
      help: 'Operations waiting for a connection from the MongoDB driver\'s pool now',
      registers,
    }),
    deliverLatency: new Histogram({
      name: 'tocsin_deliver_latency_seconds',
      help: 'From the cache commit to the hub handing the message to its subscribers\' sinks (queued behind the batch\'s earlier messages)',
      // Handing over takes microseconds per subscriber: 1,000 subscribers of one topic take ~4 ms (DESIGN.md).
      buckets: [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
      registers,
    }),
  };
}

export type TocsinMetrics = ReturnType<typeof tocsinMetrics>;
