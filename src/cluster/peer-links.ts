import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';
import type { PeerStore } from '../store/peer-store.js';
import { announcePath } from './announce-socket.js';
import { secretHeader } from './secret.js';

export interface PeerLinksOptions {
  /** Where the other nodes reach this one. */
  ownUrl: string;
  secret: string;
  /** How often this node says it is there and looks for peers come and gone. */
  refreshMs: number;
  log: { warn(details: object, message: string): void };
  observer?: { peerLinks(count: number): void; peerBatch(): void } | undefined;
}

/** The largest frame taken from a peer: a batch is one document of at most 16 MB, its JSON escaped once more. */
const maxFrameBytes = 64 * 1024 * 1024;

/**
 * This node's links to its peers: it says where it is in the store's registry, and keeps a
 * WebSocket to every other node there (announce-socket.ts), through which that node's
 * commits arrive and are offered to the store. A link that fails is dropped and made again at
 * the next refresh; what came meanwhile the tails read from the database, as without peers.
 */
export class PeerLinks {
  /** This process among the nodes: a new name at each start. */
  readonly id = randomBytes(9).toString('base64url');
  private readonly links = new Map<string, WebSocket>();
  private timer: NodeJS.Timeout | undefined;
  private refreshing: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly peers: PeerStore,
    private readonly options: PeerLinksOptions,
  ) {}

  /** Says where this node is and links to the others; a failure is logged and tried again at the next refresh. */
  async start(): Promise<void> {
    await this.refresh();
    this.timer = setInterval(() => void this.refresh(), this.options.refreshMs).unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.refreshing;
    for (const ws of this.links.values()) ws.terminate();
    this.links.clear();
    await this.peers.registry.withdraw(this.id).catch(() => undefined);
  }

  private refresh(): Promise<void> {
    this.refreshing ??= this.reconcile()
      .catch((err: unknown) => this.options.log.warn({ err }, 'cluster: reading or writing the nodes\' registry failed; trying again'))
      .finally(() => {
        this.refreshing = undefined;
      });
    return this.refreshing;
  }

  private async reconcile(): Promise<void> {
    const { registry } = this.peers;
    await registry.announce(this.id, this.options.ownUrl);
    const current = await registry.peersOf(this.id);
    if (this.stopped) return;
    const wanted = new Map(current.map((peer) => [peer.id, peer.url]));
    for (const [id, ws] of this.links) if (!wanted.has(id)) ws.terminate();
    for (const [id, url] of wanted) if (!this.links.has(id)) this.link(id, url);
  }

  private link(id: string, url: string): void {
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}${announcePath}`, {
      headers: { [secretHeader]: this.options.secret },
      maxPayload: maxFrameBytes,
      perMessageDeflate: false,
    });
    this.links.set(id, ws);
    let open = false;
    ws.on('open', () => {
      open = true;
      this.peers.presence.linked++;
      this.options.observer?.peerLinks(this.peers.presence.linked);
    });
    ws.on('message', (data: Buffer, isBinary: boolean) => this.received(url, data, isBinary));
    ws.on('error', (err) => this.options.log.warn({ err, peer: url }, 'cluster: the link to a peer failed; linking again at the next refresh'));
    ws.on('close', () => {
      if (this.links.get(id) === ws) this.links.delete(id);
      if (!open) return;
      this.peers.presence.linked--;
      this.options.observer?.peerLinks(this.peers.presence.linked);
    });
  }

  private received(url: string, data: Buffer, isBinary: boolean): void {
    let announced: unknown;
    try {
      announced = isBinary ? undefined : JSON.parse(data.toString('utf8'));
    } catch {
      announced = undefined;
    }
    const { log, batch } = (announced ?? {}) as { log?: unknown; batch?: unknown };
    if (typeof log === 'number' && this.peers.offer(log, batch)) this.options.observer?.peerBatch();
    else this.options.log.warn({ peer: url }, 'cluster: a peer sent something that is no batch of this database\'s logs; ignored');
  }
}
