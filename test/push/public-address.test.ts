import assert from 'node:assert/strict';
import { connect, createServer, type Socket } from 'node:net';
import { describe, it } from 'node:test';
import { isPublicAddress, NotPublicHost, publicAddresses, publicLookup, systemResolver, type HostResolver } from '../../src/push/public-address.js';

const answering = (...addresses: string[]): HostResolver => () => Promise.resolve(addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));

describe('public addresses', () => {
  it('loopback, private, CGNAT, link-local, unspecified, multicast and reserved addresses are not public', () => {
    const refused = ['127.0.0.1', '127.255.0.9', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '100.64.0.1', '169.254.169.254', '0.0.0.0', '224.0.0.1', '255.255.255.255', '::', '::1', 'fc00::1', 'fd12:3456::1', 'fe80::1', 'ff02::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', 'not-an-ip'];
    const allowed = ['142.250.74.42', '172.32.0.1', '100.128.0.1', '8.8.8.8', '2a00:1450:4001:82a::200a', '::ffff:8.8.8.8'];
    assert.deepEqual(refused.filter(isPublicAddress), []);
    assert.deepEqual(allowed.filter(isPublicAddress), allowed);
  });

  it('a host is refused when any of its addresses is not public, when it does not resolve, or resolves too slowly', async () => {
    assert.deepEqual(await publicAddresses('push.test', answering('142.250.74.42'), 100), [{ address: '142.250.74.42', family: 4 }]);
    await assert.rejects(publicAddresses('push.test', answering('142.250.74.42', '10.0.0.1'), 100), { name: 'Error', message: 'push.test resolves to 10.0.0.1, not a public address' });
    await assert.rejects(publicAddresses('push.test', answering(), 100), NotPublicHost);
    await assert.rejects(publicAddresses('push.test', () => Promise.reject(new Error('ENOTFOUND')), 100), { message: 'push.test does not resolve: ENOTFOUND' });
    const started = performance.now();
    await assert.rejects(publicAddresses('push.test', () => new Promise(() => undefined), 50), { message: 'push.test did not resolve within 50 ms' });
    assert.ok(performance.now() - started < 1000);
  });

  it('the system resolver: localhost (the hosts file) resolves to loopback and is refused', async () => {
    await assert.rejects(publicAddresses('localhost', systemResolver, 2000), /localhost resolves to (127\.0\.0\.1|::1), not a public address/);
  });

  it('a connection through publicLookup never reaches an address that turned private after the check (DNS rebinding; resolver test double)', async () => {
    // Given: a listener on loopback, and a host whose DNS answer changes from public to that loopback address.
    const sockets: Socket[] = [];
    const listener = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const port = (listener.address() as { port: number }).port;
    let asked = 0;
    const rebinding: HostResolver = () => Promise.resolve([{ address: asked++ === 0 ? '142.250.74.42' : '127.0.0.1', family: 4 }]);
    await publicAddresses('push.test', rebinding, 100); // the subscription's check saw a public address

    // When: the push connects.
    const failed = await new Promise<Error>((resolve) => connect({ host: 'push.test', port, lookup: publicLookup(rebinding, 100) }).on('error', resolve));

    // Then: the lookup made for the connection refused it, and nothing reached the listener.
    assert.equal(failed.message, 'push.test resolves to 127.0.0.1, not a public address');
    assert.equal(asked, 2);
    assert.equal(sockets.length, 0);
    listener.close();
  });
});
