import type { Target } from './targets.js';
import type { Worker } from './worker.js';

/** One measured value; `params` names the scenario's settings, so runs are comparable. */
export interface Figure {
  scenario: string;
  name: string;
  value: number;
  unit: string;
  params: Record<string, string | number>;
  /** Which way is better, for reading ratios. */
  better: 'higher' | 'lower';
}

/** `ferretdb-peers`: FerretDB with cluster-secret set, so the nodes announce their commits to each other. */
export const clusterStores = ['ferretdb', 'ferretdb-peers', 'postgres'] as const;
export type ClusterStore = (typeof clusterStores)[number];

export interface Sizes {
  publishSeconds: number;
  fanoutSubscribers: number[];
  fanoutFormats: ('ws' | 'sse' | 'json')[];
  fanoutFixedMessages: number;
  fanoutFixedRate: number;
  fanoutMaxSeconds: number;
  /** Requests the fan-out's full-rate publisher keeps in flight. */
  fanoutPublishers: number;
  idleSubscribers: number;
  replayMessages: number;
  mixedTopics: number;
  mixedRate: number;
  mixedSeconds: number;
  scheduledMessages: number;
  /** Seconds from scheduling to the due time. */
  scheduledLeadSeconds: number;
  /** Distinct forwarded addresses of each round of the address flood. */
  floodAddresses: number;
  /** Rounds of (one address, address flood), and the seconds of each. */
  floodRounds: number;
  floodSeconds: number;
  /** Mails sent to the SMTP listener, one after another (the e-mail scenario). */
  mailsIn: number;
  /** Rounds of (without, with X-Email) publish load in the e-mail scenario. */
  emailRounds: number;
  /** The cluster scenario's node counts (on FerretDB) and the delays (ms, each way) a proxy adds in front of the database; 0 is no proxy. */
  clusterNodes: number[];
  clusterDelays: number[];
  /** How many topics the cluster scenario's publishes spread over (each configuration runs with each); 1 is `bench` alone. */
  clusterTopics: number[];
  /** The nodes' `database-shards` (each database's configurations run with each). */
  clusterShards: number[];
  /** The shared databases measured, in this order (the SQLite reference runs first whatever they are). */
  clusterStores: ClusterStore[];
  /**
   * Seconds of wrk load per configuration, and the id-checked subscribers (ws and json in
   * turn), in all: spread over the nodes as wrk's connections are, so that every node count
   * carries the same total load (a count divisible by 1, 2 and 3 splits evenly).
   */
  clusterSeconds: number;
  clusterSubscribers: number;
  /** The fixed publish rate and count of the latency part. */
  clusterFixedRate: number;
  clusterFixedMessages: number;
}

export const fullSizes: Sizes = {
  publishSeconds: 10,
  fanoutSubscribers: [10, 100, 1000, 10000],
  fanoutFormats: ['ws', 'sse', 'json'],
  fanoutFixedMessages: 25,
  fanoutFixedRate: 5,
  fanoutMaxSeconds: 5,
  fanoutPublishers: 4,
  idleSubscribers: 10000,
  replayMessages: 10000,
  mixedTopics: 1000,
  mixedRate: 1000,
  mixedSeconds: 10,
  scheduledMessages: 100,
  scheduledLeadSeconds: 3,
  floodAddresses: 200_000,
  floodRounds: 4,
  floodSeconds: 5,
  mailsIn: 1000,
  emailRounds: 4,
  clusterNodes: [1, 2, 3],
  clusterDelays: [0, 1, 5],
  clusterTopics: [1, 64],
  clusterShards: [1],
  clusterStores: ['ferretdb', 'ferretdb-peers', 'postgres'],
  clusterSeconds: 10,
  clusterSubscribers: 12,
  clusterFixedRate: 50,
  clusterFixedMessages: 250,
};

/** Small enough for CI: proves every scenario runs; its numbers mean nothing. */
export const quickSizes: Sizes = {
  publishSeconds: 1,
  fanoutSubscribers: [20],
  fanoutFormats: ['ws', 'sse', 'json'],
  fanoutFixedMessages: 2,
  fanoutFixedRate: 4,
  fanoutMaxSeconds: 1,
  fanoutPublishers: 4,
  idleSubscribers: 50,
  replayMessages: 200,
  mixedTopics: 10,
  mixedRate: 50,
  mixedSeconds: 1,
  scheduledMessages: 10,
  scheduledLeadSeconds: 2,
  floodAddresses: 2_000,
  floodRounds: 1,
  floodSeconds: 1,
  mailsIn: 20,
  emailRounds: 1,
  // Two nodes, as before issue 34: the quick run (test/bench/quick.test.ts) is near its timeout on a busy machine.
  clusterNodes: [2],
  clusterDelays: [0],
  clusterTopics: [1],
  clusterShards: [1],
  clusterStores: ['ferretdb', 'ferretdb-peers', 'postgres'],
  clusterSeconds: 1,
  clusterSubscribers: 4,
  clusterFixedRate: 20,
  clusterFixedMessages: 10,
};

export interface Load {
  /** Subscriber processes; the load is split across them. */
  subscribers: Worker[];
  publisher: Worker;
  paced: Worker;
  autocannon: Worker;
}

export type Scenario = (target: Target, sizes: Sizes, load: Load) => Promise<Figure[]>;
