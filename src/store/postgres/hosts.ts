import type pg from 'pg';
import { parseIntoClientConfig } from 'pg-connection-string';

/** One server of the URL's host list: a name or address, or a unix socket directory. */
export interface Host {
  host: string;
  port: number;
}

/** A URL's servers and what the others share (user, database, parameters). */
export interface HostList {
  hosts: Host[];
  shared: pg.ClientConfig;
  /** `target_session_attrs=read-write` or `primary`: a server in recovery or read-only is passed over. */
  writable: boolean;
}

const defaultPort = 5432;
const sessionAttrs = ['any', 'read-write', 'primary'];

/**
 * libpq's host lists, which node-postgres does not read (its URL parser takes one host):
 * `postgres://user@db1:5432,db2:5433/tocsin?target_session_attrs=read-write`, or the
 * `host=`/`port=` parameters with commas (unix socket directories go there). One port
 * applies to every host, or there is one per host, as in libpq. Other parameters
 * (sslmode, application_name, …) are node-postgres's, shared by every host.
 */
export function parseHostList(url: string): HostList {
  const parts = /^(postgres(?:ql)?:\/\/)(?:([^@/?#]*)@)?([^/?#]*)([^?#]*)(?:\?([^#]*))?/.exec(url);
  if (!parts) throw new Error('not a postgres:// or postgresql:// URL');
  const [, scheme, userinfo, authority = '', path = '', query = ''] = parts;
  const params = new URLSearchParams(query);
  const attrs = params.get('target_session_attrs') ?? 'any';
  if (!sessionAttrs.includes(attrs)) throw new Error(`target_session_attrs=${attrs}: Tocsin writes through this URL, so it takes ${sessionAttrs.join(', ')}`);
  const named = authority.split(',').map(splitHostPort);
  const names = params.has('host') ? (params.get('host') ?? '').split(',') : named.map((h) => h.host);
  const ports = params.has('port') ? (params.get('port') ?? '').split(',') : named.map((h) => h.port);
  if (ports.length !== 1 && ports.length !== names.length) throw new Error(`${names.length} hosts but ${ports.length} ports: give one port for all or one per host`);
  const hosts = names.map((name, i) => ({ host: name || 'localhost', port: portNumber(ports[ports.length === 1 ? 0 : i] ?? '') }));
  for (const key of ['host', 'port', 'target_session_attrs']) params.delete(key);
  // The rest goes to node-postgres's parser with a stand-in host, replaced per server.
  const rest = params.toString();
  const shared = parseIntoClientConfig(`${scheme}${userinfo !== undefined ? `${userinfo}@` : ''}localhost${path}${rest ? `?${rest}` : ''}`);
  delete shared.host;
  delete shared.port;
  return { hosts, shared, writable: attrs !== 'any' };
}

function splitHostPort(entry: string): { host: string; port: string } {
  const bracketed = /^\[([^\]]*)\](?::(.*))?$/.exec(entry);
  if (bracketed) return { host: bracketed[1] ?? '', port: bracketed[2] ?? '' };
  const colon = entry.lastIndexOf(':');
  return colon < 0 ? { host: decodeURIComponent(entry), port: '' } : { host: decodeURIComponent(entry.slice(0, colon)), port: entry.slice(colon + 1) };
}

function portNumber(text: string): number {
  if (text === '') return defaultPort;
  const port = Number(text);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`port ${text}: not a TCP port`);
  return port;
}

/**
 * Which server of a host list new connections go to: the one that last served, and when
 * it fails, the next in the list (libpq tries them in order; starting at the one that
 * served spares every connection a refused attempt at a dead primary first).
 */
export class HostRouter {
  private current = 0;
  /** Connections that failed or were passed over, ever: a check-out that saw this grow tries again. */
  failures = 0;

  constructor(readonly list: HostList) {}

  /** The settings of a connection to the current server. */
  config(extra: pg.ClientConfig): pg.ClientConfig {
    const host = this.list.hosts[this.current] as Host;
    return { ...extra, ...this.list.shared, host: host.host, port: host.port };
  }

  /** How many servers a connection may try. */
  get size(): number {
    return this.list.hosts.length;
  }

  /** A connection to `host`/`port` failed, or found a server that cannot take writes: the next one is tried. */
  failed(client: { host: string; port: number }): void {
    this.failures++;
    const at = this.list.hosts[this.current];
    if (at?.host === client.host && at.port === client.port) this.current = (this.current + 1) % this.list.hosts.length;
  }

  /**
   * Rejects a connection to a server that cannot take writes (a standby, or one set
   * read-only) when the URL asks for one that can, as libpq's read-write check does.
   */
  async check(client: pg.ClientBase & { host: string; port: number }): Promise<void> {
    if (!this.list.writable) return;
    const { rows } = await client.query<{ transaction_read_only: string }>('SHOW transaction_read_only');
    if (rows[0]?.transaction_read_only !== 'on') return;
    this.failed(client);
    throw new ReadOnlyServer(client.host, client.port);
  }
}

/**
 * A server of the host list that is a standby, or read-only: a connection refused as libpq
 * refuses one that does not meet target_session_attrs, hence SQLSTATE 08004 (connection
 * rejected), which the store reports as a database out of reach (503), as ECONNREFUSED.
 */
export class ReadOnlyServer extends Error {
  readonly code = '08004';

  constructor(host: string, port: number) {
    super(`${host}:${port} does not take writes (a standby, or read-only): trying the next host`);
    this.name = 'ReadOnlyServer';
  }
}
