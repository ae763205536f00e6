/**
 * The single source of Tocsin's settings: every server.yml key with its kind, default and
 * meaning. Keys, defaults and units are ntfy's (docs/config.md), so an ntfy server.yml
 * works unchanged; env names (TOCSIN_<KEY>, NTFY_<KEY>), CLI flags, validation and the
 * docs' configuration table (docs/configuration.md) all derive from this list.
 */
import type { EndpointPattern } from '../push/endpoint-pattern.js';
import type { Template } from '../template/index.js';
import { defaultBanWeights, type BanWeights } from '../visitors/ban-weights.js';
import type { S3Location } from '../store/s3/s3-url.js';
import type { TopicRetention } from '../model/topic-retention.js';

export type SettingKind = 'string' | 'bool' | 'int' | 'duration' | 'size' | 'list' | 'mappings' | 'enum';

export interface Setting {
  kind: SettingKind;
  default: string | number | boolean | readonly string[] | readonly object[];
  doc: string;
  /** Allowed values of an enum setting. */
  values?: readonly string[];
  /** Holds a credential: left out of the config hash (ntfy 2.27), which any visitor may read. */
  secret?: boolean;
}

/** repeat-*: the bounds of alerts repeated until acknowledged. */
export interface RepeatConfig {
  minIntervalMs: number;
  untilDefaultMs: number;
  untilLimitMs: number;
  callbackAllowPrivate: boolean;
}

export const settings = {
  'base-url': { kind: 'string', default: '', doc: 'Public URL of this server, e.g. https://ntfy.example.com; used in titles and attachment links' },
  'listen-http': { kind: 'string', default: ':80', doc: 'Address to listen on, [host]:port' },
  'database-url': {
    secret: true, kind: 'string',
    default: '',
    doc: 'postgres:// or postgresql:// URL of a PostgreSQL (as ntfy 2.18), or mongodb:// or mongodb+srv:// of a MongoDB, shared by every node, for every store instead of cache-file, auth-file, web-push-file and the attachment files; empty keeps them embedded',
  },
  'database-shards': {
    kind: 'int',
    default: 0,
    doc: 'Tocsin, with database-url: how many independent ordered logs topics hash into (commits to different logs never wait for each other; order and since= hold per topic); fixed when the database is first used, 0 takes the database\'s (1 for a new one)',
  },
  'database-replica-urls': {
    secret: true, kind: 'list',
    default: [],
    doc: 'postgres:// URLs of read replicas of a PostgreSQL database-url (as ntfy 2.19): replays and polls read from them in turn, where the replica has replayed everything the request must see (else from the primary); writes and the live feed stay on the primary',
  },
  'cluster-secret': {
    secret: true, kind: 'string',
    default: '',
    doc: 'Tocsin, with a mongodb:// database-url: a secret shared by every node (at least 16 characters); set, each node announces the batches it commits to the others over a WebSocket (/v1/cluster/ws, refused without the secret), so their tails read none of them back from the database',
  },
  'cluster-advertise-url': {
    kind: 'string',
    default: '',
    doc: 'Tocsin, with cluster-secret: the http:// or https:// URL the other nodes reach this one at; empty: http://<listen-http host>:<port>, which needs a listen-http host (not a wildcard)',
  },
  'cache-size-limit': { kind: 'size', default: '1G', doc: 'Tocsin, with database-url: size of the message log (a capped collection), the most the cache holds; a change resizes an existing log at start (MongoDB 6.0+) or stops the start, naming both sizes (FerretDB)' },
  'cache-file': { kind: 'string', default: '', doc: 'SQLite file of the message cache; empty keeps the cache in memory' },
  'cache-duration': { kind: 'duration', default: '12h', doc: 'How long messages stay in the cache; 0 disables caching' },
  'topic-retention': {
    kind: 'mappings',
    default: [],
    doc: 'Tocsin: per-topic retention, each {topic, cache-duration, max-messages}: topic a name or a pattern with * (the most specific matching entry wins), cache-duration replacing cache-duration\'s for its messages, max-messages the most a topic keeps (0: no limit; the oldest are dropped at each manager-interval); as env or flag, the list as JSON',
  },
  'cache-startup-queries': { kind: 'string', default: '', doc: 'SQL run against the cache database at startup, e.g. pragmas' },
  'cache-batch-size': { kind: 'int', default: 0, doc: 'Most messages written in one cache transaction; 0 means no limit' },
  'cache-batch-timeout': { kind: 'duration', default: '0s', doc: 'How long a write may wait to join a batch when no commit is in flight (one in flight: until it ends); 0 commits once per event-loop turn' },
  'keepalive-interval': { kind: 'duration', default: '45s', doc: 'Interval of keepalive events on subscriber streams' },
  'manager-interval': { kind: 'duration', default: '1m', doc: 'Interval of housekeeping: each server\'s own (topics, visitors, stats) and the shared stores\' (cache pruning, expired tokens and attachments)' },
  'message-size-limit': { kind: 'size', default: '4k', doc: 'Largest message body; a larger body is treated as an attachment' },
  'message-title-size-limit': { kind: 'size', default: '1k', doc: 'Largest title, in bytes, as ntfy 2.28+; a longer one is refused (40057)' },
  'message-tags-size-limit': { kind: 'size', default: '512', doc: 'Most bytes of all tags together, as ntfy 2.28+; more are refused (40058)' },
  'message-delay-limit': { kind: 'duration', default: '3d', doc: 'Longest delay of a scheduled message' },
  'message-delay-min': {
    kind: 'duration',
    default: '10s',
    doc: 'Tocsin: shortest delay of a scheduled message (fixed at 10s in ntfy; shorter ones are usually a unit mistake)',
  },
  'global-topic-limit': { kind: 'int', default: 15000, doc: 'Most topics the server holds at once' },
  'subscription-topic-limit': {
    kind: 'int',
    default: 250,
    // ntfy's Android app joins every topic a user follows on one server into one connection,
    // so the limit must sit far above what a person subscribes to; it bounds what one URL
    // (up to 32 KB: ~4,900 short names) makes the server authorize, admit and replay.
    doc: 'Tocsin: most distinct topics in one subscription (ntfy\'s Android app puts all of a server\'s topics in one); 40090 past it',
  },
  'disallowed-topics': {
    kind: 'list',
    default: [],
    doc: 'Topic names refused besides the reserved ones (docs, static, file, app, metrics, account, settings, signup, login, v1), which are always refused',
  },
  'behind-proxy': { kind: 'bool', default: false, doc: 'Take the visitor address from proxy-forwarded-header' },
  'proxy-forwarded-header': { kind: 'string', default: 'X-Forwarded-For', doc: 'Header carrying the client address behind a proxy' },
  'proxy-trusted-hosts': { kind: 'list', default: [], doc: 'Proxy addresses or networks removed from the forwarded chain' },
  'auth-file': { kind: 'string', default: '', doc: 'SQLite file of users, access entries and tokens; empty turns access control off' },
  'auth-default-access': {
    kind: 'enum',
    default: 'read-write',
    values: ['read-write', 'read-only', 'write-only', 'deny-all'],
    doc: 'Access to topics no entry covers, for anonymous visitors and users alike',
  },
  'auth-users': { secret: true, kind: 'list', default: [], doc: 'Users provisioned at startup, each "name:bcrypt-hash:role" (role admin or user)' },
  'auth-access': { kind: 'list', default: [], doc: 'Access entries provisioned at startup, each "user:topic-pattern:permission" (user * for everyone, *authenticated for every logged-in user)' },
  'auth-tokens': { secret: true, kind: 'list', default: [], doc: 'Tokens provisioned at startup, each "user:tk_token[:label]"' },
  'auth-groups': { kind: 'list', default: [], doc: 'Named groups provisioned at startup, each "group:member1,member2" of provisioned users ("group:" for none); auth-access grants one to *group' },
  'auth-access-cache': {
    kind: 'bool',
    default: false,
    doc: 'Decide topic access from an in-memory table of every access entry rather than a store read per new user and topic (ntfy 2.24, for busy servers); it is reloaded after any change, here, by the CLI or on another node, within the store\'s staleness bound',
  },
  'auth-oidc-issuer': {
    kind: 'string',
    default: '',
    doc: 'Tocsin: an OpenID Connect provider\'s issuer URL (https://, or http:// on 127.0.0.1 or localhost) for single sign-on at /v1/auth/oidc/login; empty turns it off. Needs auth-oidc-client-id, auth-oidc-client-secret, base-url and auth-file',
  },
  'auth-oidc-client-id': { kind: 'string', default: '', doc: 'Tocsin: the client ID registered at the provider, whose redirect URI is base-url + /v1/auth/oidc/callback' },
  'auth-oidc-client-secret': { secret: true, kind: 'string', default: '', doc: 'Tocsin: that client\'s secret' },
  'auth-oidc-username-claim': { kind: 'string', default: 'preferred_username', doc: 'Tocsin: the ID token claim that names the Tocsin user (created at first sign-on, as a user name must be: letters, digits, - _ . + @)' },
  'auth-oidc-groups-claim': { kind: 'string', default: 'groups', doc: 'Tocsin: the ID token claim listing the user\'s groups; at each sign-on the user\'s memberships of the named groups that exist become those listed' },
  'auth-oidc-admin-groups': { kind: 'list', default: [], doc: 'Tocsin: groups (in the groups claim) whose members are made admins at sign-on; the others are made users' },
  'auth-user-header': {
    kind: 'string',
    default: '',
    doc: 'Header a trusted reverse proxy names the logged-in user in (e.g. X-Forwarded-User); honoured only from proxy-trusted-hosts, and needs behind-proxy, proxy-trusted-hosts and auth-file',
  },
  'auth-groups-header': { kind: 'string', default: '', doc: "Header listing the proxied user's groups, comma-separated (at most 100): their header memberships of named groups follow it at each request" },
  'auth-admin-group': { kind: 'string', default: '', doc: 'Group of auth-groups-header whose members are admins; the others are plain users (provisioned users are never changed)' },
  'auth-user-auto-create': { kind: 'bool', default: false, doc: 'Create a user named by auth-user-header who does not exist yet (random password); without it they are refused (40101)' },
  'auth-user-auto-create-access': {
    kind: 'string',
    default: '',
    doc: 'Access a user created by auth-user-auto-create gets to every topic (an entry on *: read-write, read-only, write-only or deny-all); empty gives none',
  },
  'auth-logout-url': { kind: 'string', default: '', doc: "Where the web app's logout sends a user the proxy logged in (auth_logout_url in /config.js and /v1/config)" },
  'enable-login': { kind: 'bool', default: false, doc: 'Let users log in through the account API (POST /v1/account/token)' },
  'login-token-duration': {
    kind: 'duration',
    default: '72h',
    doc: 'How long a login token lasts (POST /v1/account/token or /v1/account/login without an expiry), and how far PATCH /v1/account/token extends one; fixed at 72h in ntfy. The web app renews its token before then',
  },
  'enable-signup': { kind: 'bool', default: false, doc: 'Let visitors create accounts (POST /v1/account); needs enable-login' },
  'require-login': {
    kind: 'bool',
    default: false,
    doc: 'Tell the web app to send visitors who are not logged in to its login page, as ntfy 2.15 (the API stays governed by the access entries); needs enable-login',
  },
  'enable-reservations': { kind: 'bool', default: false, doc: 'Let users reserve topics, as far as their tier allows' },
  'visitor-auth-failure-limit-burst': { kind: 'int', default: 30, doc: 'Failed logins a visitor may make at once before 42909 (fixed in ntfy)' },
  'visitor-auth-failure-limit-replenish': { kind: 'duration', default: '1m', doc: 'One more failed login allowed per this interval (fixed in ntfy)' },
  'visitor-account-creation-limit-burst': { kind: 'int', default: 6, doc: 'Account actions (sign-ups and password-reset requests) a visitor may make at once before 42906 (fixed at 6 in ntfy 2.25)' },
  'visitor-account-creation-limit-replenish': { kind: 'duration', default: '24h', doc: 'One more account action allowed per this interval (fixed in ntfy)' },
  'visitor-request-limit-burst': { kind: 'int', default: 60, doc: 'Requests a visitor may make at once before 42901' },
  'visitor-topic-creation-limit-burst': {
    kind: 'int',
    default: 100,
    doc: 'New topics (not yet known to this server) a visitor may publish or subscribe to at once before 42911, as ntfy 2.23; 0 turns the limit off',
  },
  'visitor-topic-creation-limit-replenish': { kind: 'duration', default: '1m', doc: 'One more new topic per this interval (ntfy 2.23)' },
  'visitor-request-limit-exempt-hosts': { kind: 'list', default: [], doc: 'Addresses or networks never rate-limited, e.g. 10.0.0.0/8' },
  'visitor-subscription-limit': { kind: 'int', default: 30, doc: 'Subscriptions a visitor may hold open at once before 42903; a poll=1 counts while it runs' },
  'visitor-subscriber-rate-limiting': {
    kind: 'bool',
    default: false,
    doc: 'Bill publishes to UnifiedPush topics (up + 12 characters) to their subscriber rather than the publisher',
  },
  'visitor-prefix-bits-ipv4': { kind: 'int', default: 32, doc: 'Leading bits of an IPv4 address that make one visitor' },
  'visitor-prefix-bits-ipv6': { kind: 'int', default: 64, doc: 'Leading bits of an IPv6 address that make one visitor (a /64 by default)' },
  'visitor-request-limit-replenish': { kind: 'duration', default: '5s', doc: 'One more request per this interval; a visitor\'s daily message limit derives from it' },
  'visitor-message-daily-limit': { kind: 'int', default: 0, doc: 'Messages per visitor per day; 0 derives it from visitor-request-limit-replenish' },
  'visitor-email-limit-burst': { kind: 'int', default: 16, doc: 'E-mails a visitor may have forwarded at once before 42902' },
  'visitor-email-limit-replenish': { kind: 'duration', default: '1h', doc: 'One more e-mail per this interval; the daily e-mail limit derives from it' },
  'smtp-sender-addr': { kind: 'string', default: '', doc: 'SMTP relay (host:port) that forwards X-Email messages; empty refuses them (40001); needs base-url and smtp-sender-from' },
  'smtp-sender-user': { kind: 'string', default: '', doc: 'User name at the SMTP relay (AUTH PLAIN); empty sends without logging in' },
  'smtp-sender-pass': { secret: true, kind: 'string', default: '', doc: 'Password at the SMTP relay' },
  'smtp-sender-from': { kind: 'string', default: '', doc: 'Sender address of forwarded e-mails, e.g. ntfy@example.com' },
  'smtp-sender-verify': {
    kind: 'bool',
    default: false,
    doc: 'Forward X-Email messages only to addresses the publishing user verified (ntfy 2.21): anonymous 40053, another address 40052; needs smtp-sender-addr',
  },
  'smtp-server-listen': { kind: 'string', default: '', doc: 'Address ([host]:port) of the SMTP listener that publishes incoming e-mail, e.g. :25; empty: none' },
  'smtp-server-domain': { kind: 'string', default: '', doc: 'E-mail domain of the SMTP listener (the MX record\'s), e.g. ntfy.example.com' },
  'smtp-server-addr-prefix': { kind: 'string', default: '', doc: 'Prefix every recipient must carry before the topic, e.g. ntfy- for ntfy-mytopic@domain (against spam)' },
  'twilio-account': { kind: 'string', default: '', doc: 'Twilio account SID (AC...) for phone calls (X-Call); empty refuses them (40032); needs the other twilio- keys, base-url and auth-file' },
  'twilio-auth-token': { secret: true, kind: 'string', default: '', doc: 'Twilio auth token' },
  'twilio-phone-number': { kind: 'string', default: '', doc: 'Twilio number calls are made from, e.g. +18775132586' },
  'twilio-verify-service': { kind: 'string', default: '', doc: 'Twilio Verify service SID (VA...) that verifies users\' phone numbers' },
  'twilio-calls-base-url': { kind: 'string', default: 'https://api.twilio.com', doc: 'Tocsin: base URL of the Twilio REST API calls are placed through (a Twilio-compatible provider, or a test peer)' },
  'twilio-verify-base-url': { kind: 'string', default: 'https://verify.twilio.com', doc: 'Tocsin: base URL of the Twilio Verify API' },
  'twilio-call-format': {
    kind: 'string',
    default: '',
    doc: 'Go text/template of the TwiML a call says (as ntfy 2.16), with {{.Topic}}, {{.Title}}, {{.Message}}, {{.Priority}}, {{.Tags}} and {{.Sender}} (XML-escaped); parsed at startup; empty is ntfy\'s built-in announcement',
  },
  'template-dir': { kind: 'string', default: '/etc/ntfy/templates', doc: 'Directory of named message templates (NAME.yml); they override the built-in ones' },
  'attachment-cache-dir': { secret: true, kind: 'string', default: '', doc: 'Directory of uploaded attachments, or an S3 bucket as `s3://ACCESS_KEY:SECRET_KEY@BUCKET[/PREFIX]?region=REGION[&endpoint=ENDPOINT]`; empty refuses uploads (needs base-url)' },
  'attachment-total-size-limit': { kind: 'size', default: '5G', doc: 'Attachment bytes the server keeps in all' },
  'attachment-file-size-limit': { kind: 'size', default: '15M', doc: 'Largest attachment' },
  'attachment-expiry-duration': { kind: 'duration', default: '3h', doc: 'How long attachments are kept' },
  'visitor-attachment-total-size-limit': { kind: 'size', default: '100M', doc: 'Attachment bytes a visitor may have stored' },
  'visitor-attachment-daily-bandwidth-limit': { kind: 'size', default: '500M', doc: 'Attachment bytes a visitor may transfer per day' },
  'subscriber-buffer-limit': {
    kind: 'size',
    default: '256k',
    doc: 'Tocsin: most bytes queued for one slow subscriber before it is disconnected',
  },
  'upstream-base-url': { kind: 'string', default: '', doc: 'Server to send poll requests to for iOS instant notifications, e.g. https://ntfy.sh (needs base-url)' },
  'upstream-access-token': { secret: true, kind: 'string', default: '', doc: 'Access token for upstream-base-url, if its limits or access control need one' },
  'monitor-file': {
    kind: 'string',
    default: '',
    doc: 'SQLite file of the heartbeat monitors (/v1/monitors, /v1/heartbeat/<key>; ntfy after 2.28); empty turns them off (40066); needs auth-file, not with database-url',
  },
  'monitor-check-interval': { kind: 'duration', default: '30s', doc: 'How often monitors that missed their heartbeat are looked for, turned DOWN and alerted' },
  'monitor-limit': { kind: 'int', default: 20, doc: 'Tocsin: most monitors one user may have (42912 past it)' },
  'repeat-min-interval': { kind: 'duration', default: '1m', doc: 'Tocsin: shortest Repeat interval of an alert repeated until acknowledged (40095 below it)' },
  'repeat-until-default': { kind: 'duration', default: '1h', doc: 'Tocsin: how long an alert repeats when its publish gives no Repeat-Until' },
  'repeat-until-limit': { kind: 'duration', default: '12h', doc: 'Tocsin: longest Repeat-Until (40096 past it); every planned repeat counts against the publisher\'s daily messages at publish' },
  'repeat-callback-allow-private': {
    kind: 'bool',
    default: false,
    doc: 'Tocsin: let an alert\'s Callback be http:// and reach private and loopback addresses (a LAN, tests); off, it must be https:// to a public address',
  },
  'web-push-public-key': { kind: 'string', default: '', doc: 'VAPID public key (tocsin webpush keys makes a pair); set with the other web-push keys, it turns Web Push on' },
  'web-push-private-key': { secret: true, kind: 'string', default: '', doc: 'VAPID private key' },
  'web-push-file': { kind: 'string', default: '', doc: 'SQLite file of the browsers\' push subscriptions (with database-url they are kept there instead)' },
  'web-push-email-address': { kind: 'string', default: '', doc: 'Contact address the push services see in each push (VAPID sub)' },
  'web-push-startup-queries': { kind: 'string', default: '', doc: 'SQL run against web-push-file at startup' },
  'web-push-expiry-warning-duration': { kind: 'duration', default: '55d', doc: 'A subscription not renewed for this long gets a warning push' },
  'web-push-expiry-duration': { kind: 'duration', default: '60d', doc: 'A subscription not renewed for this long is removed' },
  'web-push-ttl': {
    kind: 'duration',
    default: '0s',
    doc: 'How long a push service keeps a push for a browser it cannot reach (the TTL header); 0 takes cache-duration, and with that 0 too, 28 days',
  },
  'web-push-allowed-endpoints': {
    kind: 'list',
    default: ['https://*.google.com/', 'https://*.googleapis.com/', 'https://*.mozilla.com/', 'https://*.mozaws.net/', 'https://*.windows.com/', 'https://*.microsoft.com/', 'https://*.apple.com/'],
    doc: 'Tocsin: push services browsers may subscribe with (fixed to these in ntfy): each scheme://host/path-prefix, the host exact or *. for any name under a domain; an endpoint must match one on its parsed scheme, host, port and path, and resolve to public addresses only',
  },
  'web-push-allow-private-endpoints': {
    kind: 'bool',
    default: false,
    doc: 'Tocsin: allow a push service on your own network: web-push-allowed-endpoints entries with http://, an IP address or a port, and endpoints that resolve to loopback, private or link-local addresses (off: the server never sends a push there)',
  },
  'web-root': {
    kind: 'string',
    default: '/',
    doc: 'The web app at / and /{topic} for browsers: / serves Tocsin\'s own (dist/web), a directory serves the static build in it (e.g. your build of ntfy\'s web app), disable turns it off',
  },
  'enable-metrics': { kind: 'bool', default: false, doc: 'Serve Prometheus metrics at GET /metrics on the main listener (unless metrics-listen-http is set)' },
  'metrics-listen-http': {
    kind: 'string',
    default: '',
    doc: 'A separate [host]:port serving Prometheus metrics; implies enable-metrics, and /metrics is then not served on the main listener (as ntfy)',
  },
  'enable-dashboard': {
    kind: 'bool',
    default: false,
    doc: 'Tocsin: serve the live operations dashboard (/dashboard) and its feed, GET /v1/dashboard/ws, to admins (to anyone, without topic names, when there is no access control)',
  },
  'ban-file': { kind: 'string', default: '', doc: 'File the abuse ban feed appends offender lines to, for fail2ban to tail (ntfy 2.26); empty turns the feed off' },
  'ban-window': { kind: 'duration', default: '1m', doc: 'Window over which a visitor network\'s weighted refusals are counted; at most one line per network per window' },
  'ban-threshold': { kind: 'int', default: 100, doc: 'Weighted refusals a visitor network may collect within ban-window; the next one writes its line' },
  'ban-weights': {
    kind: 'list',
    default: defaultBanWeights,
    doc: 'Strikes per refusal, each KEY:WEIGHT: KEY * (any), an ntfy code (42909), a code prefix (429*) or an HTTP status (403); the longest match wins, 0 exempts',
  },
  'log-level': { kind: 'enum', default: 'info', values: ['trace', 'debug', 'info', 'warn', 'error'], doc: 'Log level' },
  'log-format': { kind: 'enum', default: 'text', values: ['text', 'json'], doc: 'Log format' },
  'log-file': { kind: 'string', default: '', doc: 'Write logs to this file instead of stderr' },
} as const satisfies Record<string, Setting>;

export type SettingKey = keyof typeof settings;

/**
 * Topic names always refused, whatever disallowed-topics says: they are the paths of the
 * web app and the API (ntfy's DefaultDisallowedTopics, server/config.go, which
 * cmd/serve.go appends to the configured names). ntfy's web app and Android app hold the
 * same list, so a topic named here could not be opened there either.
 */
export const reservedTopics: readonly string[] = ['docs', 'static', 'file', 'app', 'metrics', 'account', 'settings', 'signup', 'login', 'v1'];

/** A token bucket: `burst` at once, then one more every `replenishMs`. */
export interface RateLimit {
  burst: number;
  replenishMs: number;
}

export interface UpstreamConfig {
  baseUrl: string;
  accessToken: string;
}

export interface WebPushConfig {
  publicKey: string;
  privateKey: string;
  file: string;
  emailAddress: string;
  startupQueries: string;
  expiryWarningMs: number;
  expiryMs: number;
  /** web-push-ttl; 0 falls back (pushTtlSeconds). */
  ttlMs: number;
  /** web-push-allowed-endpoints, parsed. */
  allowedEndpoints: EndpointPattern[];
  /** web-push-allow-private-endpoints. */
  allowPrivateEndpoints: boolean;
}

/** The Twilio account calls are made with (twilio-*). */
export interface TwilioConfig {
  account: string;
  authToken: string;
  phoneNumber: string;
  verifyService: string;
  callsBaseUrl: string;
  verifyBaseUrl: string;
  /** twilio-call-format, parsed (the built-in one when unset). */
  callFormat: Template;
}

/** Single sign-on through an OpenID Connect provider (auth-oidc-*). */
export interface OidcConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  usernameClaim: string;
  groupsClaim: string;
  adminGroups: readonly string[];
}

/** ntfy 2.26's abuse ban feed (visitors/ban-feed.ts). */
export interface BanConfig {
  file: string;
  windowMs: number;
  threshold: number;
  weights: BanWeights;
}

/** The validated, typed configuration: durations in ms, sizes in bytes. */
/** Who a trusted reverse proxy says the request is (auth-user-header and its companions). */
export interface ProxyAuthConfig {
  userHeader: string;
  /** '' without auth-groups-header: memberships and roles are then left alone. */
  groupsHeader: string;
  adminGroup: string;
  autoCreate: boolean;
  /** auth-user-auto-create-access: '' for none, else a permission word. */
  autoCreateAccess: string;
}

export interface Config {
  baseUrl: string;
  listenHttp: { host: string; port: number };
  /** Empty: the embedded stores (store/index.ts picks the backend). */
  databaseUrl: string;
  databaseShards: number;
  databaseReplicaUrls: readonly string[];
  /** Empty: the nodes announce nothing to each other (cluster/). */
  clusterSecret: string;
  clusterAdvertiseUrl: string;
  cacheSizeLimit: number;
  cacheFile: string;
  cacheDurationMs: number;
  /** topic-retention, parsed: each topic's cache duration and message limit. */
  topicRetention: TopicRetention;
  cacheStartupQueries: string;
  cacheBatchSize: number;
  cacheBatchTimeoutMs: number;
  keepaliveIntervalMs: number;
  managerIntervalMs: number;
  messageSizeLimit: number;
  messageTitleSizeLimit: number;
  messageTagsSizeLimit: number;
  messageDelayLimitMs: number;
  messageDelayMinMs: number;
  globalTopicLimit: number;
  subscriptionTopicLimit: number;
  /** The configured names, then the reserved ones (as ntfy orders them). */
  disallowedTopics: readonly string[];
  behindProxy: boolean;
  proxyForwardedHeader: string;
  proxyTrustedHosts: readonly string[];
  subscriberBufferLimit: number;
  authFile: string;
  authDefaultAccess: 'read-write' | 'read-only' | 'write-only' | 'deny-all';
  authUsers: readonly string[];
  authAccess: readonly string[];
  authTokens: readonly string[];
  authGroups: readonly string[];
  /** auth-access-cache: access decided from a table of every entry (auth/access-table.ts). */
  authAccessCache: boolean;
  /** OpenID Connect sign-on; undefined without auth-oidc-issuer. */
  oidc: OidcConfig | undefined;
  /** Trusted proxy header authentication (issue 38); undefined without auth-user-header. */
  proxyAuth: ProxyAuthConfig | undefined;
  /** auth-logout-url, for the web app. */
  authLogoutUrl: string;
  enableLogin: boolean;
  /** login-token-duration: a login token's lifetime, and each extension's. */
  loginTokenDurationMs: number;
  enableSignup: boolean;
  requireLogin: boolean;
  enableReservations: boolean;
  authFailureLimit: RateLimit;
  /** Sign-ups and password-reset requests per address (ntfy 2.25's account-action limiter). */
  accountActionLimit: RateLimit;
  visitorRequestLimitBurst: number;
  visitorRequestLimitReplenishMs: number;
  visitorRequestLimitExemptHosts: readonly string[];
  /** visitor-topic-creation-limit-*: burst 0 is off. */
  topicCreationLimit: RateLimit;
  visitorSubscriptionLimit: number;
  visitorSubscriberRateLimiting: boolean;
  visitorPrefixBitsIpv4: number;
  visitorPrefixBitsIpv6: number;
  visitorMessageDailyLimit: number;
  visitorEmailLimitBurst: number;
  visitorEmailLimitReplenishMs: number;
  /** E-mail out: the relay that forwards X-Email messages; undefined when off (40001). */
  smtpSender: { host: string; port: number; user: string; pass: string; from: string } | undefined;
  /** smtp-sender-verify: X-Email only to the publisher's verified addresses. */
  smtpSenderVerify: boolean;
  /** E-mail in: the SMTP listener publishing what it receives; undefined when off. */
  smtpServer: { listen: { host: string; port: number }; domain: string; addrPrefix: string } | undefined;
  /** Phone calls (X-Call) and number verification through Twilio; undefined when off (40032). */
  twilio: TwilioConfig | undefined;
  templateDir: string;
  /** The web app: '/' Tocsin's own, a directory another build, '' none (web-root: disable, as ntfy's empty WebRoot). */
  webRoot: string;
  /** Set (a directory or an s3:// URL): uploads are on. */
  attachmentCacheDir: string;
  /** The bucket when attachment-cache-dir is an s3:// URL; undefined for a directory. */
  attachmentS3: S3Location | undefined;
  attachmentTotalSizeLimit: number;
  attachmentFileSizeLimit: number;
  attachmentExpiryDurationMs: number;
  visitorAttachmentTotalSizeLimit: number;
  visitorAttachmentDailyBandwidthLimit: number;
  /** Poll requests for iOS; undefined without upstream-base-url. */
  upstream: UpstreamConfig | undefined;
  /** Alerts repeated until acknowledged (repeat-*), durations in ms. */
  repeat: RepeatConfig;
  /** Heartbeat monitors; undefined without monitor-file. */
  monitors: { file: string; checkIntervalMs: number; limit: number } | undefined;
  /** Web Push to browsers; undefined when off (no web-push-public-key). Durations in ms. */
  webPush: WebPushConfig | undefined;
  /** Where Prometheus metrics are served: on the main listener, on their own, or not at all. */
  metrics: { enabled: boolean; listen: { host: string; port: number } | undefined };
  enableDashboard: boolean;
  /** The abuse ban feed (ban-*); undefined without ban-file. */
  ban: BanConfig | undefined;
  /**
   * SHA-256 (hex) of the settings that are no secret and of the build, in /v1/config and
   * /config.js: the web app compares it to notice a new version or configuration.
   */
  configHash: string;
  logLevel: 'trace' | 'debug' | 'info' | 'warn' | 'error';
  logFormat: 'text' | 'json';
  logFile: string;
}

/** ntfy accepts snake_case spellings of every key too (cmd/serve.go aliases). */
export function canonicalKey(key: string): string {
  return key.trim().toLowerCase().replaceAll('_', '-');
}

export function envNames(key: SettingKey): [string, string] {
  const suffix = key.toUpperCase().replaceAll('-', '_');
  return [`TOCSIN_${suffix}`, `NTFY_${suffix}`];
}
