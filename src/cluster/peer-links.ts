import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';
import type { Added, CacheEntry } from '../store/message-cache.js';
import type { PeerStore } from '../store/peer-store.js';
import { StoreWriteError } from '../store/write-error.js';
import { announcePath } from './announce-socket.js';
import { isReply, parseFrame, type Forward } from './frames.js';
import { secretHeader } from './secret.js';

export interface PeerLinksOptions {
  secret: string;
  /** How often this node says it is there and looks for peers come and gone. */
  refreshMs: number;
  log: { warn(details: object, message: string): void };
  observer?: { peerLinks(count: number): void; peerBatch(): void; forwardedMessages(count: number): void } | undefined;
}

/** The largest frame taken from a peer: a batch is one document of at most 16 MB, its JSON escaped once more. */
const maxFrameBytes = 64 * 1024 * 1024;

/**
 * How long a forwarded add may go unanswered before it fails (503) and the link is dropped
 * (a hung leader): the leader's own commit is bounded by the database's timeouts (10 s
 * at most, store/mongo/concerns.ts) within it.
 */
const forwardTimeoutMs = 15_000;
/**
 * How long a peer that left a forward unanswered is not linked again: still in the
 * registry (its process refreshes it) but not committing, it would lead its logs again at
 * the next refresh and hold every publish to them for another forwardTimeoutMs.
 */
const shunMs = 60_000;

interface Forwarded {
  peer: string;
  resolve(added: Added): void;
  reject(err: unknown): void;
  timer: NodeJS.Timeout;
}

/**
 * This node's links to its peers: it says where it is in the store's registry, and keeps a
 * WebSocket to every other node there (announce-socket.ts), through which that node's
 * commits arrive and are offered to the store. A link that fails is dropped and made again at
 * the next refresh (a peer that left a forward unanswered: after shunMs); what came
 * meanwhile the tails read from the database, as without peers.
 */
export class PeerLinks {
  /** This process among the nodes: a new name at each start. */
  readonly id = randomBytes(9).toString('base64url');
  private readonly links = new Map<string, WebSocket>();
  /** The peers whose link is open, by id. */
  private readonly open = new Set<string>();
  /** The other nodes the registry named at the last look, by id. */
  private registered = new Set<string>();
  private readonly forwarded = new Map<number, Forwarded>();
  /** Peers not linked again until the time given (ms since the epoch): see shunMs. */
  private readonly shunned = new Map<string, number>();
  private forwards = 0;
  private timer: NodeJS.Timeout | undefined;
  private refreshing: Promise<void> | undefined;
  private stopped = false;
  /** Where the other nodes reach this one. */
  private ownUrl = '';

  constructor(
    private readonly peers: PeerStore,
    private readonly options: PeerLinksOptions,
  ) {}

  /** Says where this node is and links to the others; a failure is logged and tried again at the next refresh. */
  async start(ownUrl: string): Promise<void> {
    this.ownUrl = ownUrl;
    await this.refresh();
    this.timer = setInterval(() => void this.refresh(), this.options.refreshMs).unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.refreshing;
    for (const ws of this.links.values()) ws.terminate();
    await this.peers.registry.withdraw(this.id).catch(() => undefined);
  }

  /** Looks at the registry now (a peer linked to this node: link back without waiting for the next refresh). */
  refresh(): Promise<void> {
    if (!this.ownUrl || this.stopped) return Promise.resolve(); // not started, or stopping
    this.refreshing ??= this.reconcile()
      .catch((err: unknown) => this.options.log.warn({ err }, 'cluster: reading or writing the nodes\' registry failed; trying again'))
      .finally(() => {
        this.refreshing = undefined;
      });
    return this.refreshing;
  }

  private async reconcile(): Promise<void> {
    const { registry } = this.peers;
    await registry.announce(this.id, this.ownUrl);
    const current = await registry.peersOf(this.id);
    if (this.stopped) return;
    const now = Date.now();
    for (const [id, until] of this.shunned) if (until <= now) this.shunned.delete(id);
    const wanted = new Map(current.filter((peer) => !this.shunned.has(peer.id)).map((peer) => [peer.id, peer.url]));
    for (const [id, ws] of this.links) if (!wanted.has(id)) ws.terminate();
    for (const [id, url] of wanted) if (!this.links.has(id)) this.link(id, url);
    this.registered = new Set(current.map((peer) => peer.id));
    this.linksChanged();
  }

  /** Tells the store which peers announce to this node now (PeerPresence). */
  private linksChanged(): void {
    const { presence } = this.peers;
    presence.linked = this.open.size;
    presence.all = [...this.registered].every((id) => this.open.has(id));
    this.options.observer?.peerLinks(presence.linked);
  }

  private link(id: string, url: string): void {
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}${announcePath}`, {
      headers: { [secretHeader]: this.options.secret },
      maxPayload: maxFrameBytes,
      perMessageDeflate: false,
    });
    this.links.set(id, ws);
    ws.on('open', () => {
      this.open.add(id);
      this.linksChanged();
    });
    ws.on('message', (data: Buffer, isBinary: boolean) => this.received(url, data, isBinary));
    ws.on('error', (err) => this.options.log.warn({ err, peer: url }, 'cluster: the link to a peer failed; linking again at the next refresh'));
    ws.on('close', () => {
      if (this.links.get(id) === ws) this.links.delete(id);
      for (const [r, f] of this.forwarded) if (f.peer === id) this.settle(r, new StoreWriteError(false, new Error('the link to the log\'s leader closed before it answered; the add may have committed')));
      if (this.open.delete(id)) this.linksChanged();
    });
  }

  /**
   * The peer that commits log `log` for the nodes (undefined: this node): the nodes this one
   * is linked to and itself, ordered by id, take the logs in turn. Nodes agree once they
   * are all linked; until then two may both commit a log, which the log's chain keeps
   * safe (they race for positions, as without peers).
   */
  leaderOf(log: number): string | undefined {
    const ids = [this.id, ...this.open].sort();
    const leader = ids[log % ids.length];
    return leader === this.id ? undefined : leader;
  }

  /** Has `peer` commit `entries` (it leads their log); answers as the cache's add would. */
  forward(peer: string, entries: readonly CacheEntry[]): Promise<Added> {
    const ws = this.links.get(peer);
    if (!ws || !this.open.has(peer)) return Promise.reject(new StoreWriteError(false, new Error('no link to the log\'s leader')));
    const r = ++this.forwards;
    const frame: Forward = { forward: r, entries: entries.map(({ json, published }) => ({ json, published })) };
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.settle(r, new StoreWriteError(false, new Error(`the log's leader did not answer within ${forwardTimeoutMs} ms; the add may have committed`)));
        this.shunned.set(peer, Date.now() + shunMs);
        this.options.log.warn({ peer }, `cluster: a peer left a forwarded add unanswered for ${forwardTimeoutMs} ms; not linked to it for ${shunMs} ms, this node commits its logs meanwhile`);
        ws.terminate();
      }, forwardTimeoutMs);
      this.forwarded.set(r, { peer, resolve, reject, timer });
      ws.send(JSON.stringify(frame));
      this.options.observer?.forwardedMessages(entries.length);
    });
  }

  private settle(r: number, outcome: Added | Error): void {
    const f = this.forwarded.get(r);
    if (!f) return;
    this.forwarded.delete(r);
    clearTimeout(f.timer);
    if (outcome instanceof Error) f.reject(outcome);
    else f.resolve(outcome);
  }

  private received(url: string, data: Buffer, isBinary: boolean): void {
    const announced = parseFrame(data, isBinary);
    if (isReply(announced)) return this.settle(announced.reply, 'error' in announced ? new StoreWriteError(false, new Error(`the log's leader: ${announced.error}`)) : announced);
    const { log, batch } = (announced ?? {}) as { log?: unknown; batch?: unknown };
    if (typeof log === 'number' && this.peers.offer(log, batch)) this.options.observer?.peerBatch();
    else this.options.log.warn({ peer: url }, 'cluster: a peer sent something that is no batch of this database\'s logs; ignored');
  }
}
