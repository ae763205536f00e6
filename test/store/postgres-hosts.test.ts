import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { HostRouter, parseHostList } from '../../src/store/postgres/hosts.js';

describe('PostgreSQL host lists (libpq syntax node-postgres does not read)', () => {
  it('reads hosts and ports from the URL, the shared settings from the rest', () => {
    const list = parseHostList('postgres://tocsin:s%40cret@db1:5433,db2,[::1]:6000/ntfy?target_session_attrs=read-write&application_name=node1');
    assert.deepEqual(list.hosts, [
      { host: 'db1', port: 5433 },
      { host: 'db2', port: 5432 },
      { host: '::1', port: 6000 },
    ]);
    assert.equal(list.writable, true);
    assert.equal(list.shared.user, 'tocsin');
    assert.equal(list.shared.password, 's@cret');
    assert.equal(list.shared.database, 'ntfy');
    assert.equal(list.shared.application_name, 'node1');
    assert.equal(list.shared.host, undefined);
  });

  it('reads unix socket directories and ports from host= and port=, one port for all', () => {
    const list = parseHostList('postgresql://postgres@/tocsin?host=/run/a,/run/b&port=5433&target_session_attrs=primary');
    assert.deepEqual(list.hosts, [
      { host: '/run/a', port: 5433 },
      { host: '/run/b', port: 5433 },
    ]);
    assert.equal(list.writable, true);
    assert.equal(list.shared.database, 'tocsin');
  });

  it('one host without target_session_attrs is what node-postgres would connect to', () => {
    const list = parseHostList('postgres://u:p@localhost/db?sslmode=disable');
    assert.deepEqual(list.hosts, [{ host: 'localhost', port: 5432 }]);
    assert.equal(list.writable, false);
    assert.equal(list.shared.ssl, false);
  });

  it('refuses what it cannot honour, naming it', () => {
    assert.throws(() => parseHostList('postgres://a,b,c/db?port=1,2'), /3 hosts but 2 ports/);
    assert.throws(() => parseHostList('postgres://a:99999/db'), /port 99999: not a TCP port/);
    assert.throws(() => parseHostList('postgres://a,b/db?target_session_attrs=standby'), /target_session_attrs=standby: Tocsin writes through this URL/);
    assert.throws(() => parseHostList('mysql://a/db'), /not a postgres:\/\/ or postgresql:\/\/ URL/);
  });

  it('any list of hosts and ports reads back as written (property)', () => {
    const name = fc.stringMatching(/^[a-z][a-z0-9.-]{0,20}$/);
    const port = fc.integer({ min: 1, max: 65535 });
    fc.assert(
      fc.property(fc.array(fc.tuple(name, port), { minLength: 1, maxLength: 5 }), (hosts) => {
        const url = `postgres://u@${hosts.map(([h, p]) => `${h}:${p}`).join(',')}/db`;
        assert.deepEqual(parseHostList(url).hosts, hosts.map(([host, p]) => ({ host, port: p })));
      }),
    );
  });

  it('routes to the next host after a failure at the current one, and stays there', () => {
    const router = new HostRouter(parseHostList('postgres://a:1,b:2,c:3/db'));
    assert.equal(router.config({}).host, 'a');
    router.failed({ host: 'a', port: 1 });
    assert.equal(router.config({}).host, 'b');
    // A late failure of a host already left behind does not move the router again.
    router.failed({ host: 'a', port: 1 });
    assert.deepEqual([router.config({}).host, router.config({}).port, router.failures], ['b', 2, 2]);
    router.failed({ host: 'b', port: 2 });
    router.failed({ host: 'c', port: 3 });
    assert.equal(router.config({}).host, 'a');
  });
});
