import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { once } from 'node:events';

/** A server's TCP address, or its unix socket (PostgreSQL's test clusters listen on one only). */
export type ProxyTarget = { host: string; port: number } | { path: string };

/**
 * A TCP proxy on 127.0.0.1 in front of a server, to cut a client's connections the way a
 * network failure does: `cut` destroys open connections, and while `refusing` new ones
 * are closed as soon as they arrive. With `delayMs`, every chunk reaches the other side
 * that much later, each way (a farther network: the bench's cluster scenario), in order.
 * `freeze` stops all traffic without closing anything (a stalled network, or a node too
 * slow to read) until `thaw`: the kernel's buffers hold what is sent meanwhile.
 */
export class TcpProxy {
  /** Client and upstream sockets of each connection, oldest first. */
  private readonly open = new Set<Socket>();
  refusing = false;
  private frozen = false;

  private constructor(
    private readonly server: Server,
    /** Where new connections go: change it to follow a server restarted on another port. */
    public target: ProxyTarget,
    private readonly delayMs: number,
  ) {}

  static async start(target: ProxyTarget, options: { delayMs?: number } = {}): Promise<TcpProxy> {
    const server = createServer();
    const proxy = new TcpProxy(server, target, options.delayMs ?? 0);
    server.on('connection', (client) => proxy.pipe(client, proxy.target));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return proxy;
  }

  get port(): number {
    const address = this.server.address();
    if (address === null || typeof address === 'string') throw new Error('proxy not listening');
    return address.port;
  }

  /**
   * Destroys the open connections, both ways, but the `spare` oldest: a MongoClient's
   * first connection is its server monitor's. Cutting it together with the pool's hung the
   * monitor of mongodb 6.22 here now and then (a heartbeat started and never ended, so no
   * operation found a server for minutes): a driver matter, not what these tests are about.
   */
  /** Answers how many sockets (client and upstream sides) it destroyed. */
  cut(spare = 0): number {
    const cut = [...this.open].slice(spare * 2);
    for (const socket of cut) socket.destroy();
    return cut.length;
  }

  /** Stops reading from every connection, open or opened from now on, both ways. */
  freeze(): void {
    this.frozen = true;
    for (const socket of this.open) socket.pause();
  }

  thaw(): void {
    this.frozen = false;
    for (const socket of this.open) socket.resume();
  }

  async stop(): Promise<void> {
    this.cut();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private pipe(client: Socket, target: ProxyTarget): void {
    if (this.refusing) {
      client.destroy();
      return;
    }
    const upstream = createConnection(target);
    for (const socket of [client, upstream]) {
      this.open.add(socket);
      socket.on('close', () => {
        this.open.delete(socket);
        client.destroy();
        upstream.destroy();
      });
      socket.on('error', () => undefined); // a cut connection; 'close' follows
    }
    this.forward(client, upstream);
    this.forward(upstream, client);
    // After forward: pipe() starts the flow. A frozen socket stays paused, as nothing it
    // writes to waits to drain (which would resume it).
    if (this.frozen) for (const socket of [client, upstream]) socket.pause();
  }

  private forward(from: Socket, to: Socket): void {
    if (this.delayMs === 0) {
      from.pipe(to);
      return;
    }
    // Timers of one duration fire in the order they were set, so the bytes keep theirs.
    // No backpressure: the bench's traffic is small requests and answers.
    from.on('data', (chunk: Buffer) => setTimeout(() => to.write(chunk), this.delayMs));
    from.on('end', () => setTimeout(() => to.end(), this.delayMs));
  }
}
