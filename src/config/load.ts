import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Ajv, type ErrorObject } from 'ajv';
import { parse as parseYaml } from 'yaml';
import { parseDuration, parseSize } from '../model/units.js';
import { groupNameError, parsePermission } from '../model/access.js';
import { canonicalKey, envNames, reservedTopics, settings, type BanConfig, type Config, type OidcConfig, type Setting, type SettingKey, type TwilioConfig, type WebPushConfig } from './schema.js';
import { parseBanWeights, type BanWeights } from '../visitors/ban-weights.js';
import { parseEndpointPattern, type EndpointPattern } from '../push/endpoint-pattern.js';
import { redacted } from '../store/database-url.js';
import { compileCallFormat } from '../calls/twiml.js';
import { TemplateError, type Template } from '../template/index.js';
import { isS3Url, parseS3Url, S3UrlError, type S3Location } from '../store/s3/s3-url.js';
import { readBuildInfo } from '../build-info.js';
import { RetentionRuleError, TopicRetention } from '../model/topic-retention.js';

export type RawValues = Partial<Record<SettingKey, unknown>>;

export interface LoadSources {
  /** Path of server.yml; absent means defaults, env and flags only. */
  file?: string;
  env?: NodeJS.ProcessEnv;
  /** Values of `--<key>` flags, already keyed by setting name. */
  flags?: RawValues;
}

export interface Loaded {
  config: Config;
  /** Unknown keys in the file: reported, not fatal, as ntfy does. */
  warnings: string[];
}

/** A bad setting stops startup with this error, naming the key and the value. */
export class ConfigError extends Error {}

const keys = Object.keys(settings) as SettingKey[];
const isKey = (key: string): key is SettingKey => key in settings;

const kindSchema: Record<Setting['kind'], object> = {
  string: { type: 'string' },
  bool: { type: 'boolean' },
  int: { type: 'integer', minimum: 0 },
  duration: { type: ['string', 'number'], format: 'duration' },
  size: { type: ['string', 'number'], format: 'size' },
  list: { type: 'array', items: { type: 'string' } },
  mappings: { type: 'array', items: { type: 'object' } },
  enum: {},
};

const hints: Record<Setting['kind'], string> = {
  string: 'a string',
  bool: 'true or false',
  int: 'a whole number of at least 0',
  duration: 'a duration like 45s, 12h or 3d',
  size: 'a size like 4096, 4k or 15M',
  list: 'a list of strings',
  mappings: 'a list of mappings',
  enum: 'one of',
};

const ajv = new Ajv({ coerceTypes: 'array', allErrors: true, allowUnionTypes: true });
ajv.addFormat('duration', { type: 'string', validate: (s: string) => accepts(() => parseDuration(s)) });
ajv.addFormat('size', { type: 'string', validate: (s: string) => accepts(() => parseSize(s)) });
const validate = ajv.compile({
  type: 'object',
  properties: Object.fromEntries(
    keys.map((key) => {
      const setting: Setting = settings[key];
      return [key, setting.kind === 'enum' ? { enum: setting.values } : kindSchema[setting.kind]];
    }),
  ),
});

function accepts(parse: () => number): boolean {
  try {
    parse();
    return true;
  } catch {
    return false;
  }
}

/** Defaults < server.yml < NTFY_<KEY> < TOCSIN_<KEY> < --<key> flags. */
export function loadConfig(sources: LoadSources = {}): Loaded {
  const warnings: string[] = [];
  const raw: Record<string, unknown> = {};
  for (const key of keys) raw[key] = settings[key].default;
  if (sources.file) Object.assign(raw, readFile(sources.file, warnings));
  Object.assign(raw, fromEnv(sources.env ?? {}));
  for (const [key, value] of Object.entries(sources.flags ?? {})) {
    if (value !== undefined) raw[key] = splitList(key as SettingKey, value);
  }
  const original = structuredClone(raw);
  if (!validate(raw)) throw new ConfigError(describe(validate.errors ?? [], original));
  const config = toConfig(raw as Record<SettingKey, unknown>, configHash(raw as Record<SettingKey, unknown>));
  checkCombinations(config);
  return { config, warnings };
}

/** The shortest cluster-secret: it is all that stands between a stranger and a node's announcements. */
const minClusterSecret = 16;

/**
 * Linking nodes is for a MongoDB store (PostgreSQL's row lock already orders the nodes'
 * commits, and leaders made three nodes slower there: bench/README.md); the URL a node
 * gives its peers must be one they can reach.
 */
function checkCluster(c: Config): void {
  if (!c.clusterSecret) {
    if (c.clusterAdvertiseUrl) throw new ConfigError('if cluster-advertise-url is set, cluster-secret must also be set');
    return;
  }
  if (!/^mongodb(\+srv)?:\/\//.test(c.databaseUrl)) throw new ConfigError('cluster-secret needs a mongodb:// or mongodb+srv:// database-url (on PostgreSQL the database orders the nodes\' commits; linking them only made them slower)');
  if (c.clusterSecret.length < minClusterSecret) throw new ConfigError(`cluster-secret must be at least ${minClusterSecret} characters`);
  if (c.clusterAdvertiseUrl && !/^https?:\/\/[^/]+/.test(c.clusterAdvertiseUrl)) throw new ConfigError('if set, cluster-advertise-url must start with http:// or https://');
  if (!c.clusterAdvertiseUrl && ['', '0.0.0.0', '::'].includes(c.listenHttp.host)) throw new ConfigError('with cluster-secret, set cluster-advertise-url: listen-http names no host the other nodes could reach this one at');
}

/** The most logs database-shards may ask for: each is a tail every node runs. */
const maxShards = 64;

/** An HTTP header name (RFC 9110's token). */
const headerName = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Stricter than ntfy on purpose: ntfy honours auth-user-header from any peer unless told
 * otherwise, so one forgotten setting lets anyone name themselves admin. Here the header
 * is read only from proxy-trusted-hosts, which must be set.
 */
function checkProxyAuth(c: Config): void {
  const p = c.proxyAuth;
  if (!p) return;
  if (!c.behindProxy || c.proxyTrustedHosts.length === 0) {
    throw new ConfigError('if auth-user-header is set, behind-proxy and proxy-trusted-hosts must also be set: the header is trusted only from the proxies listed there');
  }
  if (!c.authFile && !c.databaseUrl) throw new ConfigError('if auth-user-header is set, auth-file must also be set');
  for (const [key, name] of [['auth-user-header', p.userHeader], ['auth-groups-header', p.groupsHeader]] as const) {
    if (name && !headerName.test(name)) throw new ConfigError(`invalid value for ${key}: ${JSON.stringify(name)} (must be a header name)`);
  }
  if (p.adminGroup && !p.groupsHeader) throw new ConfigError('if auth-admin-group is set, auth-groups-header must also be set');
  if (p.autoCreateAccess && !p.autoCreate) throw new ConfigError('if auth-user-auto-create-access is set, auth-user-auto-create must also be set');
  if (p.autoCreateAccess && !parsePermission(p.autoCreateAccess)) throw new ConfigError(`invalid value for auth-user-auto-create-access: ${JSON.stringify(p.autoCreateAccess)} (must be read-write, read-only, write-only or deny-all)`);
}

/** ntfy's rules for settings that need each other (cmd/serve.go); a database-url holds the users as auth-file would. */
function checkCombinations(c: Config): void {
  if (!c.authFile && !c.databaseUrl && (c.enableLogin || c.enableSignup || c.requireLogin || c.enableReservations)) {
    throw new ConfigError('cannot set enable-signup, enable-login, require-login or enable-reservations if auth-file is not set');
  }
  checkProxyAuth(c);
  if (c.enableSignup && !c.enableLogin) throw new ConfigError('cannot set enable-signup without also setting enable-login');
  if (c.requireLogin && !c.enableLogin) throw new ConfigError('cannot set require-login without also setting enable-login');
  if (c.loginTokenDurationMs < 1000) throw new ConfigError('login-token-duration must be at least 1s');
  if (c.oidc) checkOidc(c, c.oidc);
  if (c.smtpSenderVerify && !c.smtpSender) throw new ConfigError('if smtp-sender-verify is set, smtp-sender-addr must also be set');
  if (c.attachmentCacheDir && !c.baseUrl) throw new ConfigError('if attachment-cache-dir is set, base-url must also be set');
  if (c.smtpSender && (!c.baseUrl || !c.smtpSender.from)) throw new ConfigError('if smtp-sender-addr is set, base-url, and smtp-sender-from must also be set');
  // ntfy refuses them too: a limit of 0 would refuse every title, or every tag.
  if (c.databaseShards < 0 || c.databaseShards > maxShards) throw new ConfigError(`database-shards must be between 0 and ${maxShards}`);
  if (c.databaseReplicaUrls.length > 0 && !/^postgres(ql)?:\/\//.test(c.databaseUrl)) throw new ConfigError('database-replica-urls needs a postgres:// or postgresql:// database-url (MongoDB reads from its replica set through database-url)');
  const notPostgres = c.databaseReplicaUrls.find((url) => !/^postgres(ql)?:\/\//.test(url));
  if (notPostgres !== undefined) throw new ConfigError(`database-replica-urls: ${redacted(notPostgres)} is not a postgres:// or postgresql:// URL`);
  checkCluster(c);
  if (c.messageTitleSizeLimit <= 0) throw new ConfigError('message-title-size-limit must be greater than 0');
  if (c.messageTagsSizeLimit <= 0) throw new ConfigError('message-tags-size-limit must be greater than 0');
  const upstream = c.upstream?.baseUrl;
  if (upstream !== undefined && !/^https?:\/\//.test(upstream)) throw new ConfigError('if set, upstream-base-url must start with http:// or https://');
  if (upstream?.endsWith('/')) throw new ConfigError('if set, upstream-base-url must not end with a slash (/)');
  if (upstream !== undefined && !c.baseUrl) throw new ConfigError('if upstream-base-url is set, base-url must also be set');
  const push = c.webPush;
  if (push && (!push.publicKey || !push.privateKey || (!push.file && !c.databaseUrl) || !push.emailAddress || !c.baseUrl)) {
    throw new ConfigError("if web push is enabled, web-push-private-key, web-push-public-key, web-push-file, web-push-email-address, and base-url should be set. run 'tocsin webpush keys' to generate keys");
  }
  if (push && Buffer.from(push.publicKey, 'base64url').length !== 65) throw new ConfigError("invalid web-push-public-key: not a base64url P-256 public key (65 bytes); run 'tocsin webpush keys' to generate keys");
  if (push && Buffer.from(push.privateKey, 'base64url').length !== 32) throw new ConfigError("invalid web-push-private-key: not a base64url P-256 private key (32 bytes); run 'tocsin webpush keys' to generate keys");
  if (push && push.expiryWarningMs > 0 && push.expiryWarningMs > push.expiryMs) throw new ConfigError('web push expiry warning duration cannot be higher than web push expiry duration');
  if (c.smtpServer && !c.smtpServer.domain) throw new ConfigError('if smtp-server-listen is set, smtp-server-domain must also be set');
  if (c.twilio) checkTwilio(c, c.twilio);
  if (c.monitors && !c.authFile) throw new ConfigError('if monitor-file is set, auth-file must also be set (monitors belong to users)');
  if (c.monitors && c.databaseUrl) throw new ConfigError('monitor-file cannot be used with database-url: monitors are kept in an SQLite file, which the nodes of a cluster do not share');
  if (c.monitors && c.monitors.checkIntervalMs < 1000) throw new ConfigError('monitor-check-interval must be at least 1s');
  if (c.monitors && c.monitors.limit < 1) throw new ConfigError('monitor-limit must be at least 1');
  // Repeats are Agenda jobs, polled every second: a shorter interval would not be kept.
  if (c.repeat.minIntervalMs < 1000) throw new ConfigError('repeat-min-interval must be at least 1s');
  if (c.repeat.untilLimitMs < c.repeat.minIntervalMs) throw new ConfigError('repeat-until-limit must be at least repeat-min-interval');
  if (c.repeat.untilDefaultMs < c.repeat.minIntervalMs || c.repeat.untilDefaultMs > c.repeat.untilLimitMs) throw new ConfigError('repeat-until-default must be between repeat-min-interval and repeat-until-limit');
}

/** ntfy's rule, naming what is missing; the account SID's form is the twilio SDK's, which refuses any other. */
function checkTwilio(c: Config, t: TwilioConfig): void {
  const needed: [string, string][] = [
    ['twilio-auth-token', t.authToken],
    ['twilio-phone-number', t.phoneNumber],
    ['twilio-verify-service', t.verifyService],
    ['base-url', c.baseUrl],
    ['auth-file', c.authFile || c.databaseUrl], // a database-url holds the users as auth-file would
  ];
  const missing = needed.filter(([, value]) => value === '').map(([key]) => key);
  if (missing.length > 0) throw new ConfigError(`if twilio-account is set, twilio-auth-token, twilio-phone-number, twilio-verify-service, base-url, and auth-file must also be set (missing: ${missing.join(', ')})`);
  if (!t.account.startsWith('AC')) throw new ConfigError(`invalid value for twilio-account: ${JSON.stringify(t.account)} (must be a Twilio account SID, AC...)`);
  for (const key of ['twilio-calls-base-url', 'twilio-verify-base-url'] as const) {
    const url = key === 'twilio-calls-base-url' ? t.callsBaseUrl : t.verifyBaseUrl;
    if (!/^https?:\/\/[^/]/.test(url)) throw new ConfigError(`invalid value for ${key}: ${JSON.stringify(url)} (must be an http:// or https:// URL)`);
  }
}

/**
 * OpenID Connect needs the client's credentials, somewhere to keep its users, and base-url for
 * the redirect URI the provider sends the browser back to. Plain http only to this machine:
 * anywhere else the codes and tokens would cross the network readable.
 */
function checkOidc(c: Config, o: OidcConfig): void {
  const needed: [string, string][] = [
    ['auth-oidc-client-id', o.clientId],
    ['auth-oidc-client-secret', o.clientSecret],
    ['base-url', c.baseUrl],
    ['auth-file', c.authFile || c.databaseUrl],
  ];
  const missing = needed.filter(([, value]) => value === '').map(([key]) => key);
  if (missing.length > 0) throw new ConfigError(`if auth-oidc-issuer is set, auth-oidc-client-id, auth-oidc-client-secret, base-url, and auth-file must also be set (missing: ${missing.join(', ')})`);
  let url: URL | undefined;
  try {
    url = new URL(o.issuer);
  } catch {
    url = undefined;
  }
  const local = url !== undefined && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  if (url?.protocol !== 'https:' && !(url?.protocol === 'http:' && local)) {
    throw new ConfigError(`invalid value for auth-oidc-issuer: ${JSON.stringify(o.issuer)} (must be an https:// URL, or http:// on 127.0.0.1 or localhost)`);
  }
  if (o.usernameClaim === '') throw new ConfigError('auth-oidc-username-claim must not be empty');
  if (o.groupsClaim === '') throw new ConfigError('auth-oidc-groups-claim must not be empty');
  const badGroup = o.adminGroups.find((g) => groupNameError(g) !== undefined);
  if (badGroup !== undefined) throw new ConfigError(`invalid value for auth-oidc-admin-groups: ${groupNameError(badGroup)}`);
}

function readFile(path: string, warnings: string[]): Record<string, unknown> {
  let doc: unknown;
  try {
    doc = parseYaml(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new ConfigError(`cannot read config file ${path}: ${(err as Error).message}`);
  }
  if (doc === null || doc === undefined) return {};
  if (typeof doc !== 'object' || Array.isArray(doc)) throw new ConfigError(`config file ${path} must be a YAML mapping of keys to values`);
  const values: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(doc)) {
    const key = canonicalKey(name);
    if (isKey(key)) values[key] = value;
    else warnings.push(`unknown config key "${name}" in ${path} is ignored`);
  }
  return values;
}

function fromEnv(env: NodeJS.ProcessEnv): RawValues {
  const values: RawValues = {};
  for (const key of keys) {
    const [tocsin, ntfy] = envNames(key);
    const value = env[tocsin] ?? env[ntfy];
    if (value !== undefined) values[key] = splitList(key, value);
  }
  return values;
}

/** Env vars and flags carry lists as comma-separated strings, and lists of mappings as JSON (or YAML). */
function splitList(key: SettingKey, value: unknown): unknown {
  const { kind } = settings[key] as Setting;
  if (typeof value !== 'string' || (kind !== 'list' && kind !== 'mappings')) return value;
  if (kind === 'mappings') return mappingsOf(key, value);
  const items = value.split(',').map((s) => s.trim()).filter((s) => s !== '');
  return key === 'auth-groups' ? joinMembers(items) : items;
}

/**
 * In a flag or variable, commas separate both auth-groups lines and a line's members
 * (`ops:ben,mia,dev:`): a piece with no colon is one more member of the line before it,
 * since neither group nor user names hold a colon.
 */
function joinMembers(items: string[]): string[] {
  const lines: string[] = [];
  for (const item of items) {
    if (item.includes(':') || lines.length === 0) lines.push(item);
    else lines[lines.length - 1] += lines[lines.length - 1]?.endsWith(':') ? item : `,${item}`;
  }
  return lines;
}

function mappingsOf(key: SettingKey, value: string): unknown {
  try {
    return parseYaml(value) as unknown;
  } catch (err) {
    throw new ConfigError(`invalid value for ${key}: ${JSON.stringify(value)} (${(err as Error).message})`);
  }
}

function describe(errs: ErrorObject[], values: Record<string, unknown>): string {
  const lines = errs.map((err) => {
    const key = err.instancePath.split('/')[1] as SettingKey;
    const setting: Setting = settings[key];
    const hint = setting.kind === 'enum' ? `one of ${setting.values?.join(', ')}` : hints[setting.kind];
    return `invalid value for ${key}: ${JSON.stringify(values[key])} (must be ${hint})`;
  });
  return [...new Set(lines)].join('\n');
}

/** ntfy 2.27's config hash: every setting but the secrets, and the build, so a new version changes it too. */
function configHash(v: Record<SettingKey, unknown>): string {
  const shown = keys.filter((key) => !(settings[key] as Setting).secret).map((key) => [key, v[key]]);
  return createHash('sha256').update(JSON.stringify({ build: readBuildInfo(), settings: shown })).digest('hex');
}

function toConfig(v: Record<SettingKey, unknown>, hash: string): Config {
  const str = (key: SettingKey): string => String(v[key]);
  const duration = (key: SettingKey): number => parseDuration(str(key));
  const size = (key: SettingKey): number => parseSize(str(key));
  return {
    baseUrl: str('base-url').replace(/\/+$/, ''),
    listenHttp: parseListen(str('listen-http')),
    databaseUrl: str('database-url'),
    databaseShards: v['database-shards'] as number,
    databaseReplicaUrls: v['database-replica-urls'] as string[],
    clusterSecret: str('cluster-secret'),
    clusterAdvertiseUrl: str('cluster-advertise-url').replace(/\/+$/, ''),
    cacheSizeLimit: size('cache-size-limit'),
    cacheFile: str('cache-file'),
    cacheDurationMs: duration('cache-duration'),
    topicRetention: topicRetentionOf(v['topic-retention'] as unknown[], duration('cache-duration')),
    cacheStartupQueries: str('cache-startup-queries'),
    cacheBatchSize: v['cache-batch-size'] as number,
    cacheBatchTimeoutMs: duration('cache-batch-timeout'),
    keepaliveIntervalMs: duration('keepalive-interval'),
    managerIntervalMs: duration('manager-interval'),
    messageSizeLimit: size('message-size-limit'),
    messageTitleSizeLimit: size('message-title-size-limit'),
    messageTagsSizeLimit: size('message-tags-size-limit'),
    messageDelayLimitMs: duration('message-delay-limit'),
    messageDelayMinMs: duration('message-delay-min'),
    globalTopicLimit: v['global-topic-limit'] as number,
    subscriptionTopicLimit: v['subscription-topic-limit'] as number,
    disallowedTopics: [...new Set([...(v['disallowed-topics'] as string[]), ...reservedTopics])],
    behindProxy: v['behind-proxy'] as boolean,
    proxyForwardedHeader: str('proxy-forwarded-header'),
    proxyTrustedHosts: v['proxy-trusted-hosts'] as string[],
    subscriberBufferLimit: size('subscriber-buffer-limit'),
    authFile: str('auth-file'),
    authDefaultAccess: v['auth-default-access'] as Config['authDefaultAccess'],
    authUsers: v['auth-users'] as string[],
    authAccess: v['auth-access'] as string[],
    authTokens: v['auth-tokens'] as string[],
    authGroups: v['auth-groups'] as string[],
    authAccessCache: v['auth-access-cache'] as boolean,
    oidc:
      str('auth-oidc-issuer') === ''
        ? undefined
        : {
            issuer: str('auth-oidc-issuer'),
            clientId: str('auth-oidc-client-id'),
            clientSecret: str('auth-oidc-client-secret'),
            usernameClaim: str('auth-oidc-username-claim'),
            groupsClaim: str('auth-oidc-groups-claim'),
            adminGroups: v['auth-oidc-admin-groups'] as string[],
          },
    proxyAuth: str('auth-user-header') === '' ? undefined : {
      userHeader: str('auth-user-header'),
      groupsHeader: str('auth-groups-header'),
      adminGroup: str('auth-admin-group'),
      autoCreate: v['auth-user-auto-create'] as boolean,
      autoCreateAccess: str('auth-user-auto-create-access'),
    },
    authLogoutUrl: str('auth-logout-url'),
    enableLogin: v['enable-login'] as boolean,
    loginTokenDurationMs: duration('login-token-duration'),
    enableSignup: v['enable-signup'] as boolean,
    requireLogin: v['require-login'] as boolean,
    enableReservations: v['enable-reservations'] as boolean,
    authFailureLimit: { burst: v['visitor-auth-failure-limit-burst'] as number, replenishMs: duration('visitor-auth-failure-limit-replenish') },
    accountActionLimit: { burst: v['visitor-account-creation-limit-burst'] as number, replenishMs: duration('visitor-account-creation-limit-replenish') },
    visitorRequestLimitBurst: v['visitor-request-limit-burst'] as number,
    visitorRequestLimitReplenishMs: duration('visitor-request-limit-replenish'),
    topicCreationLimit: { burst: v['visitor-topic-creation-limit-burst'] as number, replenishMs: duration('visitor-topic-creation-limit-replenish') },
    visitorRequestLimitExemptHosts: v['visitor-request-limit-exempt-hosts'] as string[],
    visitorSubscriptionLimit: v['visitor-subscription-limit'] as number,
    visitorSubscriberRateLimiting: v['visitor-subscriber-rate-limiting'] as boolean,
    visitorPrefixBitsIpv4: v['visitor-prefix-bits-ipv4'] as number,
    visitorPrefixBitsIpv6: v['visitor-prefix-bits-ipv6'] as number,
    visitorMessageDailyLimit: v['visitor-message-daily-limit'] as number,
    visitorEmailLimitBurst: v['visitor-email-limit-burst'] as number,
    visitorEmailLimitReplenishMs: duration('visitor-email-limit-replenish'),
    smtpSender:
      str('smtp-sender-addr') === ''
        ? undefined
        : { ...relayAddress(str('smtp-sender-addr')), user: str('smtp-sender-user'), pass: str('smtp-sender-pass'), from: str('smtp-sender-from') },
    smtpSenderVerify: v['smtp-sender-verify'] as boolean,
    smtpServer:
      str('smtp-server-listen') === ''
        ? undefined
        : { listen: parseListen(str('smtp-server-listen'), 'smtp-server-listen'), domain: str('smtp-server-domain'), addrPrefix: str('smtp-server-addr-prefix') },
    twilio:
      str('twilio-account') === ''
        ? undefined
        : {
            account: str('twilio-account'),
            authToken: str('twilio-auth-token'),
            phoneNumber: str('twilio-phone-number'),
            verifyService: str('twilio-verify-service'),
            callsBaseUrl: str('twilio-calls-base-url').replace(/\/+$/, ''),
            verifyBaseUrl: str('twilio-verify-base-url').replace(/\/+$/, ''),
            callFormat: callFormatOf(str('twilio-call-format')),
          },
    templateDir: str('template-dir'),
    webRoot: str('web-root') === 'disable' ? '' : str('web-root'),
    attachmentCacheDir: str('attachment-cache-dir'),
    attachmentS3: s3LocationOf(str('attachment-cache-dir')),
    attachmentTotalSizeLimit: size('attachment-total-size-limit'),
    attachmentFileSizeLimit: size('attachment-file-size-limit'),
    attachmentExpiryDurationMs: duration('attachment-expiry-duration'),
    visitorAttachmentTotalSizeLimit: size('visitor-attachment-total-size-limit'),
    visitorAttachmentDailyBandwidthLimit: size('visitor-attachment-daily-bandwidth-limit'),
    upstream: str('upstream-base-url') === '' ? undefined : { baseUrl: str('upstream-base-url'), accessToken: str('upstream-access-token') },
    repeat: {
      minIntervalMs: duration('repeat-min-interval'),
      untilDefaultMs: duration('repeat-until-default'),
      untilLimitMs: duration('repeat-until-limit'),
      callbackAllowPrivate: v['repeat-callback-allow-private'] as boolean,
    },
    monitors: str('monitor-file') === '' ? undefined : { file: str('monitor-file'), checkIntervalMs: duration('monitor-check-interval'), limit: v['monitor-limit'] as number },
    webPush: str('web-push-public-key') === '' && str('web-push-private-key') === '' ? undefined : webPushOf(str, duration, v['web-push-allowed-endpoints'] as string[], v['web-push-allow-private-endpoints'] as boolean),
    metrics: {
      enabled: (v['enable-metrics'] as boolean) || str('metrics-listen-http') !== '',
      listen: str('metrics-listen-http') === '' ? undefined : parseListen(str('metrics-listen-http'), 'metrics-listen-http'),
    },
    enableDashboard: v['enable-dashboard'] as boolean,
    ban: banOf(str('ban-file'), duration('ban-window'), v['ban-threshold'] as number, v['ban-weights'] as string[]),
    configHash: hash,
    logLevel: v['log-level'] as Config['logLevel'],
    logFormat: v['log-format'] as Config['logFormat'],
    logFile: str('log-file'),
  };
}

/** The ban feed, off without a file; ban-weights are checked either way (ntfy refuses a malformed entry at startup). */
function banOf(file: string, windowMs: number, threshold: number, entries: readonly string[]): BanConfig | undefined {
  let weights: BanWeights;
  try {
    weights = parseBanWeights(entries);
  } catch (err) {
    throw new ConfigError(`invalid value for ban-weights: ${(err as Error).message}`);
  }
  if (file !== '' && windowMs <= 0) throw new ConfigError('ban-window must be greater than 0');
  return file === '' ? undefined : { file, windowMs, threshold, weights };
}

/** topic-retention's entries, checked now: a bad pattern, duration or limit stops the start. */
function topicRetentionOf(entries: readonly unknown[], cacheDurationMs: number): TopicRetention {
  try {
    return new TopicRetention(entries, cacheDurationMs);
  } catch (err) {
    if (err instanceof RetentionRuleError) throw new ConfigError(`invalid value for topic-retention: ${err.message}`);
    throw err;
  }
}

/** attachment-cache-dir's bucket when it is an s3:// URL; a malformed one stops the start. */
function s3LocationOf(value: string): S3Location | undefined {
  if (!isS3Url(value)) return undefined;
  try {
    return parseS3Url(value);
  } catch (err) {
    if (err instanceof S3UrlError) throw new ConfigError(`attachment-cache-dir: the s3:// URL ${err.message}`);
    throw err;
  }
}

function webPushOf(str: (key: SettingKey) => string, duration: (key: SettingKey) => number, allowed: readonly string[], allowPrivate: boolean): WebPushConfig {
  const pattern = (entry: string): EndpointPattern => {
    try {
      return parseEndpointPattern(entry, allowPrivate);
    } catch (err) {
      throw new ConfigError(`invalid value for web-push-allowed-endpoints: ${JSON.stringify(entry)} (${(err as Error).message})`);
    }
  };
  return {
    publicKey: str('web-push-public-key'),
    privateKey: str('web-push-private-key'),
    file: str('web-push-file'),
    emailAddress: str('web-push-email-address'),
    startupQueries: str('web-push-startup-queries'),
    expiryWarningMs: duration('web-push-expiry-warning-duration'),
    expiryMs: duration('web-push-expiry-duration'),
    ttlMs: duration('web-push-ttl'),
    allowedEndpoints: allowed.map(pattern),
    allowPrivateEndpoints: allowPrivate,
  };
}

/** twilio-call-format, parsed now so that a bad one stops the start rather than every call. */
function callFormatOf(text: string): Template {
  try {
    return compileCallFormat(text);
  } catch (err) {
    if (!(err instanceof TemplateError)) throw err;
    throw new ConfigError(`invalid value for twilio-call-format: ${err.message}`);
  }
}

/** smtp-sender-addr: `host:port` with a host (ntfy dials it with net/smtp). */
function relayAddress(value: string): { host: string; port: number } {
  const address = parseListen(value, 'smtp-sender-addr');
  if (address.host === '') throw new ConfigError(`invalid value for smtp-sender-addr: ${JSON.stringify(value)} (must be host:port, e.g. smtp.example.com:587)`);
  return address;
}

/** `[host]:port` as ntfy writes it: ":80", "127.0.0.1:8080", "[::1]:8080". An empty host means every interface. */
export function parseListen(value: string, key = 'listen-http'): { host: string; port: number } {
  const match = /^(?:\[([^\]]+)\]|([^:]*)):(\d{1,5})$/.exec(value.trim());
  const port = Number(match?.[3]);
  if (!match || port > 65535) throw new ConfigError(`invalid value for ${key}: ${JSON.stringify(value)} (must be [host]:port, e.g. :80 or 127.0.0.1:8080)`);
  return { host: match[1] ?? match[2] ?? '', port };
}
