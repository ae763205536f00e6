import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig, parseListen } from '../../src/config/load.js';
import { tempDir } from '../support/server.js';

function yamlFile(text: string): string {
  const file = join(tempDir(), 'server.yml');
  writeFileSync(file, text);
  return file;
}

describe('config', () => {
  it('defaults are ntfy’s', () => {
    const { config, warnings } = loadConfig();
    assert.deepEqual(warnings, []);
    assert.deepEqual(config.listenHttp, { host: '', port: 80 });
    assert.equal(config.cacheDurationMs, 12 * 3600 * 1000);
    assert.equal(config.keepaliveIntervalMs, 45_000);
    assert.equal(config.messageSizeLimit, 4096);
    assert.equal(config.messageDelayLimitMs, 3 * 24 * 3600 * 1000);
    assert.equal(config.globalTopicLimit, 15000);
    assert.deepEqual(config.disallowedTopics, ['docs', 'static', 'file', 'app', 'metrics', 'account', 'settings', 'signup', 'login', 'v1']);
    assert.equal(config.cacheFile, '');
  });

  it('reads server.yml with kebab-case and snake_case keys, and warns about unknown keys', () => {
    const file = yamlFile('base-url: https://ntfy.example.com/\ncache_duration: 1h\nmessage-size-limit: 8k\nbogus-key: 1\n');
    const { config, warnings } = loadConfig({ file });
    assert.equal(config.baseUrl, 'https://ntfy.example.com');
    assert.equal(config.cacheDurationMs, 3600_000);
    assert.equal(config.messageSizeLimit, 8192);
    assert.deepEqual(warnings, [`unknown config key "bogus-key" in ${file} is ignored`]);
  });

  it('env overrides the file (TOCSIN_ over NTFY_), flags override env', () => {
    const file = yamlFile('keepalive-interval: 10s\nglobal-topic-limit: 5\n');
    const env = { NTFY_KEEPALIVE_INTERVAL: '20s', TOCSIN_GLOBAL_TOPIC_LIMIT: '7', NTFY_GLOBAL_TOPIC_LIMIT: '9', NTFY_DISALLOWED_TOPICS: 'a, b' };
    const { config } = loadConfig({ file, env, flags: { 'keepalive-interval': '30s' } });
    assert.equal(config.keepaliveIntervalMs, 30_000);
    assert.equal(config.globalTopicLimit, 7);
    assert.deepEqual(config.disallowedTopics, ['a', 'b', 'docs', 'static', 'file', 'app', 'metrics', 'account', 'settings', 'signup', 'login', 'v1'], 'added to the reserved names');
  });

  it('a bad value stops loading with a message naming the key and the value', () => {
    assert.throws(() => loadConfig({ flags: { 'cache-duration': 'forever' } }), (err: Error) => {
      assert.ok(err instanceof ConfigError);
      assert.equal(err.message, 'invalid value for cache-duration: "forever" (must be a duration like 45s, 12h or 3d)');
      return true;
    });
    assert.throws(() => loadConfig({ env: { NTFY_GLOBAL_TOPIC_LIMIT: 'lots' } }), /invalid value for global-topic-limit: "lots"/);
    assert.throws(() => loadConfig({ flags: { 'log-level': 'loud' } }), /invalid value for log-level: "loud" \(must be one of trace, debug, info, warn, error\)/);
    assert.throws(() => loadConfig({ flags: { 'listen-http': 'nowhere' } }), /invalid value for listen-http: "nowhere"/);
    assert.throws(() => loadConfig({ file: yamlFile('- a\n- b\n') }), /must be a YAML mapping/);
  });

  it('title and tags limits: 1k and 512 bytes by default, size strings from env or file, 0 or negative stops startup (as ntfy)', () => {
    const { config } = loadConfig();
    assert.deepEqual([config.messageTitleSizeLimit, config.messageTagsSizeLimit], [1024, 512]);
    const fromEnv = loadConfig({ env: { NTFY_MESSAGE_TITLE_SIZE_LIMIT: '2K', NTFY_MESSAGE_TAGS_SIZE_LIMIT: '1k' } }).config;
    assert.deepEqual([fromEnv.messageTitleSizeLimit, fromEnv.messageTagsSizeLimit], [2048, 1024]);
    const fromFile = loadConfig({ file: yamlFile('message-title-size-limit: 300\nmessage_tags_size_limit: 64\n') }).config;
    assert.deepEqual([fromFile.messageTitleSizeLimit, fromFile.messageTagsSizeLimit], [300, 64]);
    assert.throws(() => loadConfig({ flags: { 'message-title-size-limit': '0' } }), (err: Error) => err instanceof ConfigError && err.message === 'message-title-size-limit must be greater than 0');
    assert.throws(() => loadConfig({ env: { NTFY_MESSAGE_TAGS_SIZE_LIMIT: '0' } }), (err: Error) => err instanceof ConfigError && err.message === 'message-tags-size-limit must be greater than 0');
    assert.throws(() => loadConfig({ env: { NTFY_MESSAGE_TITLE_SIZE_LIMIT: '-1' } }), /invalid value for message-title-size-limit: "-1" \(must be a size/);
  });

  it('topic-creation limit (ntfy 2.23): 100 new topics at once, one a minute, by default; from env and file', () => {
    assert.deepEqual(loadConfig().config.topicCreationLimit, { burst: 100, replenishMs: 60_000 });
    const env = { NTFY_VISITOR_TOPIC_CREATION_LIMIT_BURST: '5', NTFY_VISITOR_TOPIC_CREATION_LIMIT_REPLENISH: '10s' };
    assert.deepEqual(loadConfig({ env }).config.topicCreationLimit, { burst: 5, replenishMs: 10_000 });
    assert.deepEqual(loadConfig({ file: yamlFile('visitor_topic_creation_limit_burst: 0\n') }).config.topicCreationLimit.burst, 0);
    assert.throws(() => loadConfig({ flags: { 'visitor-topic-creation-limit-burst': '-1' } }), /invalid value for visitor-topic-creation-limit-burst: "-1"/);
  });

  it('auth-access-cache (ntfy 2.24): off unless set', () => {
    assert.equal(loadConfig().config.authAccessCache, false);
    assert.equal(loadConfig({ env: { NTFY_AUTH_ACCESS_CACHE: 'true' } }).config.authAccessCache, true);
  });

  it('ban feed (ntfy 2.26): off without ban-file; window, threshold and weights with ntfy\'s defaults; a bad weight stops startup', () => {
    assert.equal(loadConfig().config.ban, undefined);
    const { ban } = loadConfig({ file: yamlFile('ban-file: /var/lib/tocsin/ban.log\n') }).config;
    assert.deepEqual(ban && { ...ban, weights: ban.weights.map((w) => `${w.prefix}${w.exact ? '' : '*'}:${w.weight}`) }, {
      file: '/var/lib/tocsin/ban.log',
      windowMs: 60_000,
      threshold: 100,
      weights: ['42909:10', '42908:0', '42903:0', '42905:0', '42910:0', '*:1'],
    });
    const fromEnv = loadConfig({ env: { NTFY_BAN_FILE: '/tmp/b.log', NTFY_BAN_WINDOW: '10m', NTFY_BAN_THRESHOLD: '20', NTFY_BAN_WEIGHTS: '403:2,*:1' } }).config.ban;
    assert.deepEqual([fromEnv?.windowMs, fromEnv?.threshold, fromEnv?.weights.length], [600_000, 20, 2]);
    assert.throws(() => loadConfig({ flags: { 'ban-weights': ['42909'] } }), (err: Error) => err instanceof ConfigError && err.message === 'invalid value for ban-weights: invalid ban-weight "42909", want KEY:WEIGHT');
    assert.throws(() => loadConfig({ flags: { 'ban-file': '/tmp/b.log', 'ban-window': '0s' } }), /ban-window must be greater than 0/);
  });

  it('account switches need an auth-file, and sign-up and require-login need login (as ntfy)', () => {
    assert.throws(() => loadConfig({ flags: { 'enable-login': true } }), /cannot set enable-signup, enable-login, require-login or enable-reservations if auth-file is not set/);
    assert.throws(() => loadConfig({ env: { NTFY_REQUIRE_LOGIN: 'true' } }), /cannot set enable-signup, enable-login, require-login or enable-reservations if auth-file is not set/);
    assert.throws(() => loadConfig({ flags: { 'auth-file': '/tmp/a.db', 'enable-signup': true } }), /cannot set enable-signup without also setting enable-login/);
    assert.throws(() => loadConfig({ flags: { 'auth-file': '/tmp/a.db', 'require-login': true } }), /cannot set require-login without also setting enable-login/);
    assert.equal(loadConfig().config.requireLogin, false);
    const { config } = loadConfig({ flags: { 'auth-file': '/tmp/a.db', 'enable-signup': true, 'enable-login': true }, env: { NTFY_REQUIRE_LOGIN: 'true' } });
    assert.deepEqual([config.enableSignup, config.requireLogin, config.accountActionLimit, config.authFailureLimit], [true, true, { burst: 6, replenishMs: 86_400_000 }, { burst: 30, replenishMs: 60_000 }]);
  });

  it('login-token-duration: 72h by default, as ntfy; from the file, env or flags; under a second refused', () => {
    assert.equal(loadConfig().config.loginTokenDurationMs, 72 * 3_600_000);
    assert.equal(loadConfig({ env: { TOCSIN_LOGIN_TOKEN_DURATION: '30m' } }).config.loginTokenDurationMs, 1_800_000);
    assert.equal(loadConfig({ flags: { 'login-token-duration': '5s' } }).config.loginTokenDurationMs, 5_000);
    assert.throws(() => loadConfig({ flags: { 'login-token-duration': '0s' } }), /login-token-duration must be at least 1s/);
  });

  it('e-mail: the relay needs base-url and smtp-sender-from, the listener its domain (as ntfy); both parse to addresses', () => {
    assert.throws(() => loadConfig({ flags: { 'smtp-sender-addr': 'smtp.example.com:587', 'smtp-sender-from': 'a@b.c' } }), /if smtp-sender-addr is set, base-url, and smtp-sender-from must also be set/);
    assert.throws(() => loadConfig({ flags: { 'smtp-sender-addr': 'smtp.example.com:587', 'base-url': 'https://n.example' } }), /smtp-sender-from must also be set/);
    assert.throws(() => loadConfig({ flags: { 'smtp-sender-addr': ':587', 'base-url': 'https://n.example', 'smtp-sender-from': 'a@b.c' } }), /invalid value for smtp-sender-addr: ":587" \(must be host:port/);
    assert.throws(() => loadConfig({ flags: { 'smtp-server-listen': ':25' } }), /if smtp-server-listen is set, smtp-server-domain must also be set/);
    const { config } = loadConfig({
      flags: { 'smtp-sender-addr': 'smtp.example.com:587', 'smtp-sender-user': 'u', 'smtp-sender-pass': 'p', 'smtp-sender-from': 'a@b.c', 'base-url': 'https://n.example', 'smtp-server-listen': ':25', 'smtp-server-domain': 'n.example', 'smtp-server-addr-prefix': 'ntfy-' },
    });
    assert.deepEqual(config.smtpSender, { host: 'smtp.example.com', port: 587, user: 'u', pass: 'p', from: 'a@b.c' });
    assert.deepEqual(config.smtpServer, { listen: { host: '', port: 25 }, domain: 'n.example', addrPrefix: 'ntfy-' });
    assert.deepEqual([config.visitorEmailLimitBurst, config.visitorEmailLimitReplenishMs], [16, 3_600_000]);
    assert.deepEqual([loadConfig().config.smtpSender, loadConfig().config.smtpServer], [undefined, undefined]);
  });

  it('config hash (ntfy 2.27): the same for the same settings, another for another setting, blind to secrets', () => {
    const base = { 'auth-file': '/tmp/a.db', 'smtp-sender-addr': 'smtp.example.com:587', 'smtp-sender-from': 'a@b.c', 'base-url': 'https://n.example' };
    const hash = (flags: Record<string, unknown>): string => loadConfig({ flags: { ...base, ...flags } }).config.configHash;
    const plain = hash({});
    assert.match(plain, /^[0-9a-f]{64}$/);
    assert.equal(hash({}), plain);
    assert.notEqual(hash({ 'enable-login': true }), plain);
    assert.notEqual(hash({ 'smtp-sender-verify': true }), plain);
    for (const secret of [{ 'smtp-sender-pass': 'hunter2' }, { 'upstream-access-token': 'tk_x' }, { 'auth-tokens': ['ben:tk_x'] }, { 'auth-users': ['ben:$2a$10$x:user'] }]) {
      assert.equal(hash(secret), plain, JSON.stringify(secret));
    }
  });

  it('smtp-sender-verify: off by default, needs smtp-sender-addr (as ntfy)', () => {
    assert.equal(loadConfig().config.smtpSenderVerify, false);
    assert.throws(() => loadConfig({ flags: { 'smtp-sender-verify': true } }), /if smtp-sender-verify is set, smtp-sender-addr must also be set/);
    assert.throws(() => loadConfig({ env: { NTFY_SMTP_SENDER_VERIFY: 'maybe' } }), /invalid value for smtp-sender-verify: "maybe" \(must be true or false\)/);
    const { config } = loadConfig({ file: yamlFile('smtp_sender_verify: true\nsmtp-sender-addr: smtp.example.com:587\nsmtp-sender-from: a@b.c\nbase-url: https://n.example\n') });
    assert.equal(config.smtpSenderVerify, true);
  });

  it('web push: all of its keys and base-url, or none (as ntfy); the warning no later than the expiry', () => {
    const full = { 'web-push-public-key': `B${'A'.repeat(86)}`, 'web-push-private-key': 'A'.repeat(43), 'web-push-file': '/tmp/wp.db', 'web-push-email-address': 'a@b.c', 'base-url': 'https://n.example' };
    const need = /if web push is enabled, web-push-private-key, web-push-public-key, web-push-file, web-push-email-address, and base-url should be set/;
    for (const key of Object.keys(full)) {
      assert.throws(() => loadConfig({ flags: { ...full, [key]: '' } }), need, key);
    }
    assert.throws(() => loadConfig({ flags: { ...full, 'web-push-public-key': 'pub' } }), /invalid web-push-public-key: not a base64url P-256 public key \(65 bytes\)/);
    assert.throws(() => loadConfig({ flags: { ...full, 'web-push-private-key': 'A'.repeat(44) } }), /invalid web-push-private-key: not a base64url P-256 private key \(32 bytes\)/);
    assert.throws(() => loadConfig({ flags: { ...full, 'web-push-expiry-warning-duration': '61d' } }), /web push expiry warning duration cannot be higher than web push expiry duration/);
    const { config } = loadConfig({ flags: { ...full, 'web-push-file': '', 'database-url': 'mongodb://db/tocsin' } });
    assert.equal(config.webPush?.file, '', 'with database-url the subscriptions are kept there');
    const web = loadConfig({ flags: full }).config.webPush;
    assert.deepEqual([web?.expiryWarningMs, web?.expiryMs], [55 * 86_400_000, 60 * 86_400_000]);
    assert.deepEqual(web?.allowedEndpoints[1], { protocol: 'https:', host: 'googleapis.com', anySubdomain: true, port: '', pathPrefix: '/' });
    assert.equal(web?.allowPrivateEndpoints, false);
    const allowed = (entry: string, extra: Record<string, unknown> = {}): unknown => loadConfig({ flags: { ...full, 'web-push-allowed-endpoints': [entry], ...extra } }).config.webPush?.allowedEndpoints[0];
    assert.throws(() => allowed('https://fcm.*.com/'), /invalid value for web-push-allowed-endpoints: "https:\/\/fcm.\*.com\/" \(\* may only stand as the first label of the host/);
    assert.throws(() => allowed('ftp://push.example/'), /not an https:\/\/ URL/);
    assert.throws(() => allowed('https://u:p@push.example/'), /a user, query or fragment has no place in it/);
    for (const entry of ['http://push.example/', 'https://10.0.0.5/', 'https://push.example:8443/']) {
      assert.throws(() => allowed(entry), /needs web-push-allow-private-endpoints/, entry);
    }
    assert.deepEqual(allowed('http://10.0.0.5:8080/push/', { 'web-push-allow-private-endpoints': true }), { protocol: 'http:', host: '10.0.0.5', anySubdomain: false, port: '8080', pathPrefix: '/push/' });
    assert.equal(loadConfig().config.webPush, undefined);
  });

  it('upstream: an http(s) URL without a trailing slash, and base-url (as ntfy)', () => {
    const base = { 'base-url': 'https://n.example' };
    assert.throws(() => loadConfig({ flags: { ...base, 'upstream-base-url': 'ntfy.sh' } }), /if set, upstream-base-url must start with http:\/\/ or https:\/\//);
    assert.throws(() => loadConfig({ flags: { ...base, 'upstream-base-url': 'https://ntfy.sh/' } }), /if set, upstream-base-url must not end with a slash/);
    assert.throws(() => loadConfig({ flags: { 'upstream-base-url': 'https://ntfy.sh' } }), /if upstream-base-url is set, base-url must also be set/);
    const { config } = loadConfig({ flags: { ...base, 'upstream-base-url': 'https://ntfy.sh', 'upstream-access-token': 'tk_x' } });
    assert.deepEqual([config.upstream, loadConfig().config.upstream], [{ baseUrl: 'https://ntfy.sh', accessToken: 'tk_x' }, undefined]);
  });

  it('read replicas: postgres:// URLs, for a PostgreSQL database-url only (as ntfy 2.19), from the file or env', () => {
    const primary = { 'database-url': 'postgres://u:pw@db1/tocsin' };
    const file = yamlFile('database-url: postgres://u:pw@db1/tocsin\ndatabase-replica-urls:\n  - postgres://u:pw@db2/tocsin\n  - postgresql://u:pw@db3/tocsin\n');
    assert.deepEqual(loadConfig({ file }).config.databaseReplicaUrls, ['postgres://u:pw@db2/tocsin', 'postgresql://u:pw@db3/tocsin']);
    assert.deepEqual(loadConfig({ env: { NTFY_DATABASE_REPLICA_URLS: 'postgres://db2/t,postgres://db3/t' }, flags: primary }).config.databaseReplicaUrls, ['postgres://db2/t', 'postgres://db3/t']);
    assert.deepEqual(loadConfig().config.databaseReplicaUrls, []);
    assert.throws(() => loadConfig({ flags: { 'database-replica-urls': 'postgres://db2/t' } }), /database-replica-urls needs a postgres:\/\/ or postgresql:\/\/ database-url/);
    assert.throws(() => loadConfig({ flags: { 'database-url': 'mongodb://db1/t', 'database-replica-urls': 'postgres://db2/t' } }), /database-replica-urls needs a postgres/);
    assert.throws(() => loadConfig({ flags: { ...primary, 'database-replica-urls': 'mysql://u:secret@db2/t' } }), (err: Error) => err instanceof ConfigError && err.message === 'database-replica-urls: mysql://…@db2/t is not a postgres:// or postgresql:// URL');
  });

  it('cluster-secret: a MongoDB database-url, 16 characters at least, and an address the peers can reach', () => {
    const mongo = { 'database-url': 'mongodb://db1/tocsin', 'listen-http': '10.0.0.5:80' };
    const secret = 'sixteen-chars-ok';
    const { config } = loadConfig({ flags: { ...mongo, 'cluster-secret': secret, 'cluster-advertise-url': 'https://node1.example:8443/' } });
    assert.deepEqual([config.clusterSecret, config.clusterAdvertiseUrl], [secret, 'https://node1.example:8443']);
    assert.deepEqual([loadConfig().config.clusterSecret, loadConfig().config.clusterAdvertiseUrl], ['', '']);
    assert.equal(loadConfig({ env: { NTFY_CLUSTER_SECRET: secret }, flags: mongo }).config.clusterSecret, secret);
    assert.throws(() => loadConfig({ flags: { 'cluster-secret': secret } }), /cluster-secret needs a mongodb:\/\/ or mongodb\+srv:\/\/ database-url/);
    assert.throws(() => loadConfig({ flags: { 'database-url': 'postgres://db1/t', 'cluster-secret': secret } }), /cluster-secret needs a mongodb/);
    assert.throws(() => loadConfig({ flags: { ...mongo, 'cluster-secret': 'short' } }), /cluster-secret must be at least 16 characters/);
    assert.throws(() => loadConfig({ flags: { ...mongo, 'cluster-secret': secret, 'cluster-advertise-url': 'node1:80' } }), /if set, cluster-advertise-url must start with http:\/\/ or https:\/\//);
    assert.throws(() => loadConfig({ flags: { ...mongo, 'cluster-advertise-url': 'http://node1' } }), /if cluster-advertise-url is set, cluster-secret must also be set/);
    for (const wildcard of [':80', '0.0.0.0:80', '[::]:80']) {
      assert.throws(() => loadConfig({ flags: { ...mongo, 'listen-http': wildcard, 'cluster-secret': secret } }), /with cluster-secret, set cluster-advertise-url/);
    }
  });

  it('phone calls: twilio-account needs the other twilio keys, base-url and auth-file, naming what is missing (as ntfy)', () => {
    const account = 'AC0123456789abcdef0123456789abcdef';
    const complete = { 'twilio-account': account, 'twilio-auth-token': 'secret', 'twilio-phone-number': '+18775132586', 'twilio-verify-service': 'VA0123', 'base-url': 'https://n.example', 'auth-file': '/tmp/a.db' };
    const rule = 'if twilio-account is set, twilio-auth-token, twilio-phone-number, twilio-verify-service, base-url, and auth-file must also be set';
    assert.throws(() => loadConfig({ flags: { 'twilio-account': account } }), {
      message: `${rule} (missing: twilio-auth-token, twilio-phone-number, twilio-verify-service, base-url, auth-file)`,
    });
    assert.throws(() => loadConfig({ flags: { ...complete, 'twilio-verify-service': '', 'auth-file': '' } }), { message: `${rule} (missing: twilio-verify-service, auth-file)` });
    assert.throws(() => loadConfig({ flags: { ...complete, 'twilio-account': 'SK123' } }), { message: 'invalid value for twilio-account: "SK123" (must be a Twilio account SID, AC...)' });
    assert.throws(() => loadConfig({ flags: { ...complete, 'twilio-calls-base-url': '127.0.0.1:99' } }), { message: 'invalid value for twilio-calls-base-url: "127.0.0.1:99" (must be an http:// or https:// URL)' });
    const { config } = loadConfig({ flags: { ...complete, 'twilio-verify-base-url': 'http://127.0.0.1:9000/' } });
    const { callFormat, ...twilio } = config.twilio!;
    assert.deepEqual(twilio, {
      account, authToken: 'secret', phoneNumber: '+18775132586', verifyService: 'VA0123', callsBaseUrl: 'https://api.twilio.com', verifyBaseUrl: 'http://127.0.0.1:9000',
    });
    assert.match(callFormat.render({ Topic: 't', Message: 'm', Sender: 's' }), /^\n<Response>\n\t<Pause length="1"\/>\n\t<Say loop="3">\n\t\tYou have a message from notify on topic t\. Message:/, 'unset: ntfy\'s built-in TwiML');
    assert.equal(loadConfig({ flags: { ...complete, 'auth-file': '', 'database-url': 'mongodb://db/tocsin' } }).config.twilio?.account, account, 'a database-url holds the users');
    assert.equal(loadConfig().config.twilio, undefined);
  });

  it('single sign-on (Tocsin): auth-oidc-issuer needs the client, base-url and auth-file; https, or http only to this machine', () => {
    const complete = { 'auth-oidc-issuer': 'https://id.example/realms/staff', 'auth-oidc-client-id': 'tocsin', 'auth-oidc-client-secret': 's3cret', 'base-url': 'https://n.example', 'auth-file': '/tmp/a.db' };
    const rule = 'if auth-oidc-issuer is set, auth-oidc-client-id, auth-oidc-client-secret, base-url, and auth-file must also be set';
    assert.throws(() => loadConfig({ flags: { 'auth-oidc-issuer': complete['auth-oidc-issuer'] } }), { message: `${rule} (missing: auth-oidc-client-id, auth-oidc-client-secret, base-url, auth-file)` });
    assert.throws(() => loadConfig({ flags: { ...complete, 'auth-oidc-client-secret': '' } }), { message: `${rule} (missing: auth-oidc-client-secret)` });
    const scheme = '(must be an https:// URL, or http:// on 127.0.0.1 or localhost)';
    assert.throws(() => loadConfig({ flags: { ...complete, 'auth-oidc-issuer': 'http://id.example' } }), { message: `invalid value for auth-oidc-issuer: "http://id.example" ${scheme}` });
    assert.throws(() => loadConfig({ flags: { ...complete, 'auth-oidc-issuer': 'id.example' } }), { message: `invalid value for auth-oidc-issuer: "id.example" ${scheme}` });
    assert.throws(() => loadConfig({ flags: { ...complete, 'auth-oidc-groups-claim': '' } }), { message: 'auth-oidc-groups-claim must not be empty' });
    assert.throws(() => loadConfig({ flags: { ...complete, 'auth-oidc-admin-groups': ['ops team'] } }), { message: /^invalid value for auth-oidc-admin-groups: invalid group name "ops team"/ });
    assert.equal(loadConfig({ flags: { ...complete, 'auth-oidc-issuer': 'http://localhost:8080' } }).config.oidc?.issuer, 'http://localhost:8080');
    assert.deepEqual(loadConfig({ env: { TOCSIN_AUTH_OIDC_ADMIN_GROUPS: 'admins, ops' }, flags: complete }).config.oidc, {
      issuer: 'https://id.example/realms/staff',
      clientId: 'tocsin',
      clientSecret: 's3cret',
      usernameClaim: 'preferred_username',
      groupsClaim: 'groups',
      adminGroups: ['admins', 'ops'],
    });
    assert.equal(loadConfig().config.oidc, undefined);
  });

  it('phone calls: twilio-call-format is parsed at startup, from server.yml or the environment; a bad one stops the start naming the key', () => {
    const complete = { 'twilio-account': 'AC0123', 'twilio-auth-token': 'secret', 'twilio-phone-number': '+18775132586', 'twilio-verify-service': 'VA0123', 'base-url': 'https://n.example', 'auth-file': '/tmp/a.db' };
    const file = yamlFile('twilio-call-format: |\n  <Response>\n    <Say>{{.Title}}: {{.Message}}</Say>\n  </Response>\n');
    const { config } = loadConfig({ file, flags: complete });
    assert.equal(config.twilio?.callFormat.render({ Title: 'T', Message: 'M' }), '<Response>\n  <Say>T: M</Say>\n</Response>\n');
    const env = loadConfig({ env: { NTFY_TWILIO_CALL_FORMAT: '<Say>{{.Sender}}</Say>' }, flags: complete }).config;
    assert.equal(env.twilio?.callFormat.render({ Sender: 'phil' }), '<Say>phil</Say>');
    assert.throws(() => loadConfig({ flags: { ...complete, 'twilio-call-format': '<Say>{{.Message</Say>' } }), (e: unknown) => e instanceof ConfigError && /^invalid value for twilio-call-format: template: twiml:1:\d+: /.test(e.message));
    assert.throws(() => loadConfig({ flags: { ...complete, 'twilio-call-format': '<Say>{{ .Message | shout }}</Say>' } }), { message: 'invalid value for twilio-call-format: template: twiml:1:19: function "shout" not defined' });
  });

  it('monitors: monitor-file turns them on, with its check interval (30s) and per-user limit (20); it needs auth-file and no database-url', () => {
    assert.equal(loadConfig().config.monitors, undefined);
    assert.deepEqual(loadConfig({ flags: { 'monitor-file': '/tmp/m.db', 'auth-file': '/tmp/a.db' } }).config.monitors, { file: '/tmp/m.db', checkIntervalMs: 30_000, limit: 20 });
    const env = loadConfig({ env: { NTFY_MONITOR_FILE: '/tmp/m.db', NTFY_AUTH_FILE: '/tmp/a.db', NTFY_MONITOR_CHECK_INTERVAL: '2m', TOCSIN_MONITOR_LIMIT: '5' } }).config.monitors;
    assert.deepEqual(env, { file: '/tmp/m.db', checkIntervalMs: 120_000, limit: 5 });
    assert.throws(() => loadConfig({ flags: { 'monitor-file': '/tmp/m.db' } }), { message: 'if monitor-file is set, auth-file must also be set (monitors belong to users)' });
    assert.throws(() => loadConfig({ flags: { 'monitor-file': '/tmp/m.db', 'auth-file': '/tmp/a.db', 'database-url': 'postgres://db/t' } }), { message: 'monitor-file cannot be used with database-url: monitors are kept in an SQLite file, which the nodes of a cluster do not share' });
    assert.throws(() => loadConfig({ flags: { 'monitor-file': '/tmp/m.db', 'auth-file': '/tmp/a.db', 'monitor-check-interval': '500ms' } }), { message: 'monitor-check-interval must be at least 1s' });
    assert.throws(() => loadConfig({ flags: { 'monitor-file': '/tmp/m.db', 'auth-file': '/tmp/a.db', 'monitor-limit': 0 } }), { message: 'monitor-limit must be at least 1' });
  });

  it('repeated alerts (Tocsin): 1m shortest interval, 1h default and 12h longest Repeat-Until, private callbacks refused; from env and flags; bounds that contradict stop startup', () => {
    assert.deepEqual(loadConfig().config.repeat, { minIntervalMs: 60_000, untilDefaultMs: 3_600_000, untilLimitMs: 43_200_000, callbackAllowPrivate: false });
    const env = loadConfig({ env: { TOCSIN_REPEAT_MIN_INTERVAL: '10s', TOCSIN_REPEAT_UNTIL_DEFAULT: '30m', NTFY_REPEAT_UNTIL_LIMIT: '2h', TOCSIN_REPEAT_CALLBACK_ALLOW_PRIVATE: 'true' } }).config.repeat;
    assert.deepEqual(env, { minIntervalMs: 10_000, untilDefaultMs: 1_800_000, untilLimitMs: 7_200_000, callbackAllowPrivate: true });
    assert.throws(() => loadConfig({ flags: { 'repeat-min-interval': '500ms' } }), { message: 'repeat-min-interval must be at least 1s' });
    assert.throws(() => loadConfig({ flags: { 'repeat-min-interval': '2h', 'repeat-until-limit': '1h' } }), { message: 'repeat-until-limit must be at least repeat-min-interval' });
    assert.throws(() => loadConfig({ flags: { 'repeat-until-default': '13h' } }), { message: 'repeat-until-default must be between repeat-min-interval and repeat-until-limit' });
    assert.throws(() => loadConfig({ flags: { 'repeat-until-default': '30s' } }), { message: 'repeat-until-default must be between repeat-min-interval and repeat-until-limit' });
  });

  it('listen addresses: :80, host:port, [ipv6]:port', () => {
    assert.deepEqual(parseListen(':80'), { host: '', port: 80 });
    assert.deepEqual(parseListen('127.0.0.1:8080'), { host: '127.0.0.1', port: 8080 });
    assert.deepEqual(parseListen('[::1]:9000'), { host: '::1', port: 9000 });
    assert.throws(() => parseListen('1.2.3.4:99999'), ConfigError);
  });

  it('topic-retention (Tocsin): entries from the file, or JSON from env and flags; a bad entry stops startup naming it', () => {
    const file = yamlFile('cache-duration: 12h\ntopic-retention:\n  - topic: "alerts*"\n    cache-duration: 720h\n    max-messages: 10000\n');
    const { config } = loadConfig({ file });
    assert.deepEqual(config.topicRetention.of('alerts-db'), { cacheDurationMs: 720 * 3600_000, maxMessages: 10_000 });
    assert.deepEqual(config.topicRetention.of('other'), { cacheDurationMs: 12 * 3600_000, maxMessages: 0 });
    const fromEnv = loadConfig({ env: { TOCSIN_TOPIC_RETENTION: '[{"topic": "x", "max-messages": 3}]' } }).config;
    assert.equal(fromEnv.topicRetention.of('x').maxMessages, 3);
    assert.equal(loadConfig().config.topicRetention.limitsCount, false, 'none by default');
    const refused = (settings: Parameters<typeof loadConfig>[0], message: string): void => {
      assert.throws(() => loadConfig(settings), (err: Error) => err instanceof ConfigError && err.message === message);
    };
    refused({ file: yamlFile('topic-retention:\n  - topic: "a/b"\n    max-messages: 1\n') }, 'invalid value for topic-retention: topic-retention entry 1: topic must be a topic or a pattern with * (1-64 of A-Z, a-z, 0-9, -, _ and *), not "a/b"');
    refused({ file: yamlFile('topic-retention:\n  - topic: a\n    cache-duration: 5 weeks\n') }, 'invalid value for topic-retention: topic-retention entry 1 (a): cache-duration must be a duration like 12h or 30d, not "5 weeks"');
    refused({ flags: { 'topic-retention': '[{"topic": "a", "max-messages": -1}]' } }, 'invalid value for topic-retention: topic-retention entry 1 (a): max-messages must be a whole number of at least 0, not -1');
    refused({ file: yamlFile('topic-retention: [1, 2]\n') }, 'invalid value for topic-retention: [1,2] (must be a list of mappings)');
    assert.throws(() => loadConfig({ env: { TOCSIN_TOPIC_RETENTION: '[{' } }), (err: Error) => err instanceof ConfigError && err.message.startsWith('invalid value for topic-retention: "[{"'));
  });
});
