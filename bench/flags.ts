/** The harness's command line, read into one value (tested in test/bench/flags.test.ts). */
import { parseArgs } from 'node:util';
import { clusterStores, fullSizes, quickSizes, type Sizes } from './figures.js';

export interface BenchFlags {
  sizes: Sizes;
  /** Scenario names to run; undefined for the default set. */
  only?: string[];
  /** Interleaved rounds: each round runs every server once; figures are the medians. */
  rounds: number;
  target?: string;
  targetPid?: number;
  /** Path of an ntfy server binary to measure beside Tocsin. */
  vsNtfy?: string;
  inMemory: boolean;
  ceiling: boolean;
  profile?: string;
  out?: string;
  /** Write the table into bench/README.md. */
  table: boolean;
}

type ListKey = 'fanoutSubscribers' | 'clusterNodes' | 'clusterTopics' | 'clusterShards';
type NumberKey = { [K in keyof Sizes]: Sizes[K] extends number ? K : never }[keyof Sizes];

/** Size flags: `--subscribers 1000,10000` replaces `fanoutSubscribers`, and so on. */
const listFlags: Record<string, ListKey> = { subscribers: 'fanoutSubscribers', 'cluster-nodes': 'clusterNodes', 'cluster-topics': 'clusterTopics', 'cluster-shards': 'clusterShards' };
const numberFlags: Record<string, NumberKey> = {
  'publish-seconds': 'publishSeconds',
  'fanout-seconds': 'fanoutMaxSeconds',
  'fanout-publishers': 'fanoutPublishers',
  'idle-subscribers': 'idleSubscribers',
  'replay-messages': 'replayMessages',
  'mixed-topics': 'mixedTopics',
  'mixed-seconds': 'mixedSeconds',
  'cluster-seconds': 'clusterSeconds',
  'cluster-subscribers': 'clusterSubscribers',
};
const formats = ['ws', 'sse', 'json'] as const;

/** A comma-separated list of names, each one of `known`. */
function namesOf<T extends string>(flag: string, text: string, known: readonly T[]): T[] {
  return text.split(',').map((name) => {
    const found = known.find((k) => k === name);
    if (!found) throw new Error(`--${flag}: ${name} is not one of ${known.join(', ')}`);
    return found;
  });
}

function count(flag: string, text: string, least = 1): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < least) throw new Error(`--${flag} wants a ${least === 0 ? 'whole number, 0 or more' : 'positive whole number'}, not ${JSON.stringify(text)}`);
  return n;
}

export function parseBenchFlags(args: string[]): BenchFlags {
  const sizeOptions: Record<string, { type: 'string' }> = Object.fromEntries([...Object.keys(listFlags), ...Object.keys(numberFlags), 'formats', 'cluster-delays', 'cluster-stores'].map((k) => [k, { type: 'string' }]));
  const { values } = parseArgs({
    args,
    strict: true,
    options: {
      quick: { type: 'boolean', default: false },
      target: { type: 'string' },
      'target-pid': { type: 'string' },
      'vs-ntfy': { type: 'string' },
      rounds: { type: 'string', default: '1' },
      'in-memory': { type: 'boolean', default: false },
      only: { type: 'string' },
      profile: { type: 'string' },
      out: { type: 'string' },
      table: { type: 'boolean', default: false },
      'no-ceiling': { type: 'boolean', default: false },
      ...sizeOptions,
    },
  });
  const sizes: Sizes = { ...(values.quick ? quickSizes : fullSizes) };
  const sized = values as Record<string, string | boolean | undefined>;
  for (const [flag, key] of Object.entries(listFlags)) {
    const text = sized[flag];
    if (typeof text === 'string') sizes[key] = text.split(',').map((part) => count(flag, part));
  }
  for (const [flag, key] of Object.entries(numberFlags)) {
    const text = sized[flag];
    if (typeof text === 'string') sizes[key] = count(flag, text);
  }
  // 0 is a delay (no proxy), unlike the counts.
  if (typeof sized['cluster-delays'] === 'string') sizes.clusterDelays = sized['cluster-delays'].split(',').map((part) => count('cluster-delays', part, 0));
  if (typeof sized.formats === 'string') sizes.fanoutFormats = namesOf('formats', sized.formats, formats);
  if (typeof sized['cluster-stores'] === 'string') sizes.clusterStores = namesOf('cluster-stores', sized['cluster-stores'], clusterStores);
  if (values['target-pid'] !== undefined && values.target === undefined) throw new Error('--target-pid needs --target');
  if (values.target !== undefined && values['in-memory']) throw new Error('--in-memory is for the Tocsin the harness starts, not a --target');
  return {
    sizes,
    ...(values.only !== undefined && { only: values.only.split(',') }),
    rounds: count('rounds', values.rounds),
    ...(values.target !== undefined && { target: values.target }),
    ...(values['target-pid'] !== undefined && { targetPid: count('target-pid', values['target-pid']) }),
    ...(values['vs-ntfy'] !== undefined && { vsNtfy: values['vs-ntfy'] }),
    inMemory: values['in-memory'],
    ceiling: !values['no-ceiling'],
    ...(values.profile !== undefined && { profile: values.profile }),
    ...(values.out !== undefined && { out: values.out }),
    table: values.table,
  };
}
