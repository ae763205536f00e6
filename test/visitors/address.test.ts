import assert from 'node:assert/strict';
import { isIP } from 'node:net';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { clientAddress, contains, networks, visitorKey } from '../../src/visitors/address.js';
import { ipVersion } from '../../src/visitors/ip-text.js';

describe('visitor addresses', () => {
  const trusted = networks('proxy-trusted-hosts', ['10.0.0.0/8', '2001:db8::/32', '192.0.2.7']);

  it('parse address and network lists, refusing anything else by name', () => {
    assert.deepEqual(['10.1.2.3', '11.0.0.1', '2001:db8:5::1', '2001:db9::1', '192.0.2.7', 'nonsense'].map((a) => contains(trusted, a)), [true, false, true, false, true, false]);
    assert.throws(() => networks('visitor-request-limit-exempt-hosts', ['example.com']), /^Error: invalid visitor-request-limit-exempt-hosts entry "example.com": expected an IP address or a network like 10.0.0.0\/8$/);
    assert.throws(() => networks('proxy-trusted-hosts', ['10.0.0.0/33']), /invalid proxy-trusted-hosts entry "10.0.0.0\/33"/);
    assert.deepEqual(['10.1.2.3', '2001:db8::1', 'nonsense'].map((a) => contains(networks('proxy-trusted-hosts', []), a)), [false, false, false]);
  });

  it('group IPv6 addresses of every written form by their prefix', () => {
    assert.equal(visitorKey('2001:DB8:0:1:2:3:4:5', 32, 64), '2001:db8:0:1:0:0:0:0/64');
    assert.equal(visitorKey('::1', 32, 64), '0:0:0:0:0:0:0:0/64');
    assert.equal(visitorKey('fe80::1%eth0', 32, 10), 'fe80:0:0:0:0:0:0:0/10');
    assert.equal(visitorKey('2001:db8:a:b:c:d:e::', 32, 112), '2001:db8:a:b:c:d:e:0/112');
    assert.equal(visitorKey('2001:db8:a:b:c:d:e:f', 32, 120), '2001:db8:a:b:c:d:e:0/120');
    assert.equal(visitorKey('2001:db8:a:b:c:d:e:1ff', 32, 120), '2001:db8:a:b:c:d:e:100/120');
  });

  it('take the right-most untrusted address of X-Forwarded-For or Forwarded, else the peer', () => {
    assert.equal(clientAddress('10.0.0.1', undefined, trusted), '10.0.0.1');
    assert.equal(clientAddress('10.0.0.1', '203.0.113.5', trusted), '203.0.113.5');
    assert.equal(clientAddress('10.0.0.1', '198.51.100.1, 203.0.113.5, 10.2.3.4', trusted), '203.0.113.5', 'the proxy in the chain is skipped');
    assert.equal(clientAddress('10.0.0.1', 'for=198.51.100.1;proto=https, for="[2001:db9::42]"', trusted), '2001:db9::42');
    assert.equal(clientAddress('10.0.0.1', 'unknown, 10.9.9.9', trusted), '10.0.0.1', 'nothing usable: the peer');
  });

  it('group addresses into visitors by prefix bits (IPv6 by /64)', () => {
    assert.equal(visitorKey('203.0.113.5', 32, 64), '203.0.113.5');
    assert.equal(visitorKey('203.0.113.5', 24, 64), '203.0.113.0/24');
    assert.equal(visitorKey('2001:db8:1:2:aaaa::1', 32, 64), '2001:db8:1:2:0:0:0:0/64');
    assert.equal(visitorKey('2001:db8:1:2::ffff', 32, 64), visitorKey('2001:db8:1:2:9::', 32, 64), 'one /64, one visitor');
    assert.notEqual(visitorKey('2001:db8:1:3::1', 32, 64), visitorKey('2001:db8:1:2::1', 32, 64));
    assert.equal(visitorKey('::ffff:203.0.113.5', 32, 128), '::ffff:203.0.113.5');
    assert.equal(visitorKey('::ffff:203.0.113.5', 32, 112), '0:0:0:0:0:ffff:cb00:0/112');
  });

  it('read IP text exactly as net.isIP does (property: any string, and addresses bent by one character)', () => {
    const chars = fc.constantFrom(...'0123456789abcdefABCDEF:.%gz-'.split(''));
    const text = fc.array(chars, { maxLength: 45 }).map((a) => a.join(''));
    const zoned = fc.tuple(fc.ipV6(), fc.option(fc.stringMatching(/^%[0-9a-zA-Z.:-]{0,4}$/), { nil: '' })).map(([a, z]) => a + z);
    const bent = fc.tuple(fc.oneof(fc.ipV4(), fc.ipV6()), chars, fc.nat(40)).map(([a, c, i]) => a.slice(0, i) + c + a.slice(i + 1));
    fc.assert(
      fc.property(fc.oneof(text, fc.ipV4(), fc.ipV4Extended(), fc.ipV6(), zoned, bent), (s) => ipVersion(s) === isIP(s)),
      { numRuns: 20_000 },
    );
    assert.deepEqual(['1.2.3.4', '01.2.3.4', '::', '1::2::3', '::ffff:1.2.3.4', '1:2:3:4:5:6:7::', '1:2:3:4:5:6:7:8:9', 'fe80::1%eth0', 'fe80::1%'].map(ipVersion), [4, 0, 6, 0, 6, 6, 0, 6, 0]);
  });
});

