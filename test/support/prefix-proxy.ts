import { createServer, request, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';

/**
 * A reverse proxy serving a server under a path prefix, as nginx with
 * `location /ntfy/ { proxy_pass http://tocsin/; }`: it strips the prefix from each request
 * and passes WebSocket upgrades through. It remembers the upgrade paths, and `dropSockets`
 * cuts every open WebSocket as a network failure would.
 */
export class PrefixProxy {
  readonly upgrades: string[] = [];
  private readonly sockets = new Set<Socket>();
  private readonly server: Server;

  private constructor(
    readonly prefix: string,
    private readonly target: URL,
  ) {
    this.server = createServer((req, res) => {
      const path = this.strip(req.url ?? '/');
      if (path === undefined) return void res.writeHead(404).end();
      const upstream = request(new URL(path, this.target), { method: req.method, headers: req.headers }, (reply) => {
        res.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(res);
      });
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    });
    this.server.on('upgrade', (req, client: Socket, head: Buffer) => {
      const path = this.strip(req.url ?? '/');
      if (path === undefined) return void client.destroy();
      this.upgrades.push(path);
      const upstream = connect(Number(this.target.port), this.target.hostname, () => {
        const headers = Object.entries(req.headers).map(([name, value]) => `${name}: ${String(value)}`);
        upstream.write(`${req.method} ${path} HTTP/1.1\r\n${headers.join('\r\n')}\r\n\r\n`);
        upstream.write(head);
        upstream.pipe(client).pipe(upstream);
      });
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
    });
  }

  /** Listens on `port` (0: any free one) in front of `target`. */
  static async start(prefix: string, target: string, port = 0): Promise<PrefixProxy> {
    const proxy = new PrefixProxy(prefix, new URL(target));
    await new Promise<void>((resolve) => proxy.server.listen(port, '127.0.0.1', resolve));
    return proxy;
  }

  get port(): number {
    return (this.server.address() as { port: number }).port;
  }

  dropSockets(): void {
    for (const socket of this.sockets) socket.destroy();
  }

  close(): Promise<void> {
    this.dropSockets();
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private strip(url: string): string | undefined {
    if (url === this.prefix) return '/';
    return url.startsWith(`${this.prefix}/`) ? url.slice(this.prefix.length) : undefined;
  }
}
