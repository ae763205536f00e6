import assert from 'node:assert/strict';
import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, verify, type ECDH } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { after } from 'node:test';
import { Mailbox, type Json } from './clients.js';

/** A browser as the Push API makes it: its key pair and auth secret (RFC 8291), and its endpoint at the service. */
export interface Browser {
  endpoint: string;
  p256dh: string;
  auth: string;
  ecdh: ECDH;
}

/** A push the service took: whose it was, its decrypted JSON, the VAPID claims and the headers. */
export interface Push {
  browser: string;
  payload: Json;
  claims: { aud: string; exp: number; sub: string };
  headers: IncomingMessage['headers'];
}

/**
 * A push service (RFC 8030) on a free 127.0.0.1 port, as Mozilla's or Google's behaves
 * towards a server: every push must carry a valid VAPID JWT (RFC 8292: ES256 signed by the
 * server's key, `aud` this service's origin, `exp` within 24 h, a `sub`) and an aes128gcm
 * body (RFC 8291) that it decrypts with the browser's private key, here with Node's
 * crypto alone (not the sender's library). A push that fails a check is answered 400 and
 * fails the test through `problems`. `answer` sets what a browser's endpoint answers
 * (410: unsubscribed; 'reset': the connection is dropped, no answer at all); `hold` keeps every answer back until `release`.
 */
export class PushService {
  readonly pushes = new Mailbox<Push>();
  readonly problems: string[] = [];
  private readonly browsers = new Map<string, Browser>();
  private readonly statuses = new Map<string, number | 'reset'>();
  private held: (() => void)[] | undefined;
  /** Pushes received, answered or not. */
  received = 0;

  private constructor(
    readonly url: string,
    private readonly vapidPublicKey: string,
  ) {}

  static async start(vapidPublicKey: string): Promise<PushService> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const service = new PushService(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`, vapidPublicKey);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => void service.handle(req, res));
    after(() => {
      service.release();
      server.closeAllConnections();
      server.close();
    });
    return service;
  }

  /** A new browser subscribed at this service. */
  browser(name: string): Browser {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const browser = { endpoint: `${this.url}/push/${name}`, p256dh: ecdh.getPublicKey('base64url'), auth: randomBytes(16).toString('base64url'), ecdh };
    this.browsers.set(name, browser);
    return browser;
  }

  answer(name: string, status: number | 'reset'): void {
    this.statuses.set(name, status);
  }

  hold(): void {
    this.held ??= [];
  }

  release(): void {
    const held = this.held ?? [];
    this.held = undefined;
    for (const answer of held) answer();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    this.received++;
    const name = (req.url ?? '').replace(/^\/push\//, '');
    let status = this.statuses.get(name) ?? 201;
    try {
      const browser = this.browsers.get(name);
      assert.ok(browser, `no browser ${name}`);
      assert.equal(req.method, 'POST');
      assert.equal(req.headers['content-encoding'], 'aes128gcm');
      const claims = this.checkVapid(req.headers.authorization ?? '');
      const payload = JSON.parse(decrypt(Buffer.concat(chunks), browser).toString('utf8')) as Json;
      this.pushes.put({ browser: name, payload, claims, headers: req.headers });
    } catch (err) {
      this.problems.push(String(err));
      status = 400;
    }
    const answer = (): void => void (status === 'reset' ? req.socket.destroy() : res.writeHead(status).end());
    if (this.held) this.held.push(answer);
    else answer();
  }

  /** RFC 8292: `vapid t=<JWT>, k=<the server's public key>`, the JWT ES256 over the claims. */
  private checkVapid(authorization: string): Push['claims'] {
    const match = /^vapid t=([^,]+), k=(.+)$/.exec(authorization);
    assert.ok(match, `Authorization ${authorization}`);
    const [, jwt = '', key = ''] = match;
    assert.equal(key, this.vapidPublicKey, 'k is the server\'s VAPID public key');
    const [header = '', claims = '', signature = ''] = jwt.split('.');
    assert.deepEqual(JSON.parse(Buffer.from(header, 'base64url').toString()), { typ: 'JWT', alg: 'ES256' });
    const point = Buffer.from(key, 'base64url');
    const publicKey = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33, 65).toString('base64url') }, format: 'jwk' });
    const signed = verify('sha256', Buffer.from(`${header}.${claims}`), { key: publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'));
    assert.ok(signed, 'the JWT is signed with the VAPID private key');
    const parsed = JSON.parse(Buffer.from(claims, 'base64url').toString()) as Push['claims'];
    assert.equal(parsed.aud, this.url, 'aud is the push service\'s origin');
    const now = Date.now() / 1000;
    assert.ok(parsed.exp > now && parsed.exp <= now + 24 * 3600, `exp ${parsed.exp} within 24 h`);
    return parsed;
  }
}

/**
 * RFC 8291 (Message Encryption for Web Push) over RFC 8188 (aes128gcm): the header holds
 * the salt, the record size and the server's ephemeral public key; one record, its
 * padding ended by the delimiter 2.
 */
function decrypt(body: Buffer, browser: Browser): Buffer {
  const salt = body.subarray(0, 16);
  const keyLength = body.readUInt8(20);
  const serverKey = body.subarray(21, 21 + keyLength);
  const record = body.subarray(21 + keyLength);
  const secret = browser.ecdh.computeSecret(serverKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), browser.ecdh.getPublicKey(), serverKey]);
  const ikm = Buffer.from(hkdfSync('sha256', secret, Buffer.from(browser.auth, 'base64url'), keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  const end = padded.lastIndexOf(2);
  assert.ok(end >= 0 && padded.subarray(end + 1).every((b) => b === 0), 'padding ends with the last-record delimiter');
  return padded.subarray(0, end);
}
