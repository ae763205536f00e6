import fc from 'fast-check';

/**
 * A grammar of hostile HTTP requests for the fuzz run: every path, method and parameter
 * Tocsin reads, filled with malformed values (headers, RFC 2047 words, JSON bodies,
 * actions, delays, templates, since, auth, uploads, WebSocket upgrades). Requests are
 * well framed (a correct Content-Length, or proper chunks), so HTTP owes each an answer.
 */

const topic = fc.oneof(fc.constantFrom('t', 'fuzz', 'up123456789012', 'a'.repeat(64), 'a'.repeat(65), 'v1', 'docs', 'bad topic', 'ü', '..', ''), fc.stringMatching(/^[-_A-Za-z0-9]{1,70}$/));
const junk = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.stringMatching(/^(%[0-9A-Fa-f]{0,2}|[\\/.?#&=;,: ]|[a-z]){0,30}$/),
);

/** Issue 33, findings 1 and 6: a topic named many times, and many distinct fresh topics (paths up to ~30 KB: see `long`). */
const manyTopics = fc.oneof(
  fc.tuple(fc.constantFrom('t', 'fuzz', 'big', 'a'.repeat(20)), fc.integer({ min: 2, max: 1500 })).map(([t, n]) => Array(n).fill(t).join(',')),
  fc.tuple(fc.stringMatching(/^[a-z]{1,3}$/), fc.integer({ min: 1, max: 1200 })).map(([prefix, n]) => Array.from({ length: n }, (_, i) => `${prefix}${i}`).join(',')),
);

const path = fc.oneof(
  fc.tuple(manyTopics, fc.constantFrom('/json', '/sse', '/raw', '/ws', '/auth')).map(([ts, s]) => `/${ts}${s}`),
  fc.tuple(topic, fc.constantFrom('', '/json', '/sse', '/raw', '/ws', '/auth', '/publish', '/send', '/trigger', '/seq1', '/seq1/clear', '/seq1/read')).map(([t, s]) => `/${t}${s}`),
  fc.tuple(fc.array(topic, { minLength: 1, maxLength: 4 }), fc.constantFrom('/json', '/sse', '/raw', '/ws')).map(([ts, s]) => `/${ts.join(',')}${s}`),
  fc.constantFrom('/', '/v1/health', '/v1/config', '/config.js', '/v1/stats', '/v1/account', '/v1/account/token', '/v1/account/password', '/v1/account/settings', '/v1/account/subscription', '/v1/account/reservation', '/v1/account/reservation/t', '/v1/users', '/v1/users/access', '/v1/tiers', '/account/admin', '/file/abc', '/file/abc.txt', '/file/', '//', '/%00', '/static/x', '/metrics', '/_matrix/push/v1/notify', '/v1/webpush', '/v1/receipts/abcdefABCDEF', '/v1/receipts/x', '/v1/receipts/%2e%2e', '/t/abcdefABCDEF/ack', '/t/x/ack', '/t/%00/ack'),
  junk.map((j) => `/${j}`),
);

const priority = fc.oneof(fc.constantFrom('1', '5', '0', '6', 'max', 'urgent', 'loud', 'u=1, i', 'u=9', '-1', '1e9', ''), junk);
/**
 * Issue 33, findings 3, 4 and 7: values long enough that a quadratic parse or an uncounted
 * size shows, and past the 8 KB header line cap. At most 12 KB (36 KB percent-encoded): a
 * request head over 64 KB reaches uWS in several reads, and uWS closes such a head past
 * 4 KB without a status line, before Tocsin sees it.
 */
const long = fc.tuple(fc.constantFrom('=?a?B?!', '=?', 'jan', 't', '9', 'tomorrow ', '\u00fc'), fc.constantFrom(' ', '!', '=?', 'a', '1 '), fc.integer({ min: 100, max: 6_000 }), fc.constantFrom('', '?=', '!'))
  .map(([head, unit, n, tail]) => head + unit.repeat(n) + tail);
const delay = fc.oneof(long, fc.constantFrom('10s', '1m', '30m', '3d', '4d', '0', '-5m', 'tomorrow, 9am', 'never', '99999999999999999999', '1e400', 'Tuesday 7pm', '1h30m', 'in 5 minutes'), fc.integer().map(String), junk);
const since = fc.oneof(fc.constantFrom('all', 'latest', 'none', '10m', '0', '-1', 'abcdefghijkl', '1e30', '99999999999999999999'), fc.integer().map(String), junk);
const action = fc.oneof(
  fc.constantFrom('view, Open, https://x', 'http, Go, https://x, method=GET, body=x', 'copy, Copy, v', 'broadcast, B, extras.a=b', 'jump, x', '"unclosed', "view, 'a\\'b', https://x", 'view, Open, https://x; view, Two, https://y; view, 3, https://z; view, 4, https://w'),
  fc.json(),
  fc.array(fc.dictionary(fc.constantFrom('action', 'label', 'url', 'method', 'headers', 'body', 'clear', 'value', 'extras'), fc.jsonValue()), { maxLength: 4 }).map((a) => JSON.stringify(a)),
  junk,
);
const template = fc.oneof(fc.constantFrom('yes', '1', 'no', 'github', 'grafana', 'alertmanager', 'missing', '../etc/passwd', '{{'), junk);
/** Issue 33, finding 2: a value of shared structure 2^depth nodes wide, walked by a structural function. */
const sharedStructure = fc.tuple(fc.integer({ min: 10, max: 40 }), fc.constantFrom('deepEqual $x $x', 'has $x (list $x)', 'toJSON $x', 'printf "%v" $x', 'uniq (list $x $x)', 'without (list $x) $x', 'len (toString $x)', 'eq $x $x'))
  .map(([depth, walk]) => `{{$x := list 1}}{{range $i := until ${depth}}}{{$x = list $x $x}}{{end}}{{${walk}}}`);
const templateText = fc.oneof(sharedStructure, fc.constantFrom('{{.a}}', '{{range .x}}{{.}}{{end}}', '{{template "x"}}', '{{', '{{.a.b.c}}', '{{printf "%s" .}}', '{{range $i := until 100000}}{{$i}}{{end}}', '{{ len nil }}'), junk);
const encoded = fc.tuple(fc.constantFrom('UTF-8', 'utf-8', 'ISO-8859-1', 'x-unknown', ''), fc.constantFrom('B', 'Q', 'X', ''), fc.oneof(fc.base64String({ maxLength: 12 }), junk)).map(([c, e, t]) => `=?${c}?${e}?${t}?=`);
const credentials = fc.oneof(
  fc.constantFrom('Basic ' + Buffer.from('phil:pw').toString('base64'), 'Basic !!!', 'Basic ' + Buffer.from(':tk_abc').toString('base64'), 'Bearer tk_x', 'Bearer ', 'Digest x', 'Basic'),
  junk,
);

/** Issue 33, finding 8: link schemes a browser would run. */
const link = fc.oneof(fc.constantFrom('javascript:alert(1)', ' JavaScript:alert(1)', 'java\tscript:alert(1)', 'data:text/html,<script>alert(1)</script>', 'vbscript:x', 'https://example.com/ok', 'mailto:a@b.c', 'geo:0,0'), junk);

/** Issue 37's repeated alerts: intervals, escalation steps and callbacks, good and hostile. */
const repeat = fc.oneof(fc.constantFrom('1m', '5m', '0', '-1m', '59s', '13h', '1e400h', '2 days', 'never'), junk);
const escalate = fc.oneof(fc.constantFrom('15m email ops@example.com', '1m call +15551234567', '1m email yes', Array(6).fill('1m email a@b.c').join(', '), 'x email', ',,,'), junk);
const callback = fc.oneof(link, fc.constantFrom('http://127.0.0.1:1/', 'https://169.254.169.254/latest/meta-data', 'https://[::1]/', 'https://hooks.example/ack'));

/** Header name → value generator; each request takes a few. */
const headerValues: [string, fc.Arbitrary<string>][] = [
  ['Title', fc.oneof(junk, encoded, long)],
  ['Message', fc.oneof(junk, encoded, templateText)],
  ['Priority', priority],
  ['X-Priority', priority],
  ['Tags', fc.oneof(junk, encoded, long)],
  ['Delay', delay],
  ['At', delay],
  ['Actions', fc.oneof(action, encoded, link.map((url) => `view, Open, ${url}`))],
  ['Click', link],
  ['Attach', fc.oneof(fc.constantFrom('https://example.com/a.pdf', 'ftp://x', 'https://'), junk)],
  ['Filename', junk],
  ['Icon', fc.oneof(fc.constantFrom('https://example.com/i.png', 'file:///etc'), junk)],
  ['Email', junk],
  ['Call', junk],
  ['Cache', fc.constantFrom('no', 'yes', 'x')],
  ['Firebase', fc.constantFrom('no', 'yes')],
  ['UnifiedPush', fc.constantFrom('1', 'yes', 'x')],
  ['Template', fc.oneof(template, long)],
  ['Markdown', fc.constantFrom('yes', 'no', 'x')],
  ['Content-Type', fc.constantFrom('text/markdown', 'application/json', 'multipart/form-data', 'x')],
  ['Content-Encoding', fc.constantFrom('aes128gcm', 'gzip', 'x')],
  ['Poll-ID', junk],
  ['X-Sequence-ID', junk],
  ['Repeat', repeat],
  ['Repeat-Until', repeat],
  ['Callback', callback],
  ['Escalate', escalate],
  ['Authorization', credentials],
  ['X-Forwarded-For', fc.oneof(fc.ipV4(), fc.ipV6(), junk)],
  ['Range', fc.constantFrom('bytes=0-1', 'bytes=5-', 'bytes=-3', 'bytes=9-1', 'bytes=x', 'items=0-1')],
  ['Upgrade', fc.constantFrom('websocket', 'h2c', 'x')],
  ['Connection', fc.constantFrom('Upgrade', 'keep-alive', 'close')],
  ['Sec-WebSocket-Key', fc.constantFrom('dGhlIHNhbXBsZSBub25jZQ==', 'short', '')],
  ['Sec-WebSocket-Version', fc.constantFrom('13', '8', 'x')],
];

const queryNames = ['message', 'title', 't', 'm', 'p', 'priority', 'tags', 'delay', 'in', 'at', 'actions', 'since', 'poll', 'scheduled', 'id', 'auth', 'tpl', 'template', 'up', 'filename', 'attach', 'icon', 'email', 'call', 'cache', 'Title', 'repeat', 'repeat-until'];
const queryValue = fc.oneof(junk, since, delay, priority, templateText, fc.base64String({ maxLength: 40 }));
const query = fc.array(fc.tuple(fc.constantFrom(...queryNames), queryValue), { maxLength: 4 }).map((pairs) =>
  pairs.length === 0 ? '' : `?${pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&')}`,
);

const publishJson = fc.record(
  {
    topic: fc.oneof(topic, fc.jsonValue()),
    message: fc.oneof(junk, fc.jsonValue()),
    title: fc.oneof(junk, fc.constant(null), fc.integer()),
    priority: fc.oneof(fc.integer({ min: -2, max: 9 }), fc.constant(null), junk),
    tags: fc.oneof(fc.array(fc.oneof(junk, fc.constant(null))), fc.jsonValue()),
    actions: fc.oneof(fc.array(fc.dictionary(fc.constantFrom('action', 'label', 'url', 'clear', 'headers'), fc.jsonValue()), { maxLength: 4 }), fc.jsonValue()),
    delay: fc.oneof(delay, fc.constant(null)),
    attach: fc.oneof(junk, fc.constant(null)),
    markdown: fc.oneof(fc.boolean(), fc.constant(null), junk),
  },
  { requiredKeys: [] },
).map((o) => JSON.stringify(o));

/** Issue 33, finding 5: push endpoints that smuggle another host, port or path past the allow-list. */
const webPushJson = fc
  .tuple(
    fc.constantFrom('https://127.0.0.1:18299\\x.google.com/../../admin?a=b', 'https://fcm.googleapis.com/fcm/send/x', 'https://x.google.com@127.0.0.1/', 'http://x.google.com/', 'https://x.google.com:8443/', 'https://169.254.169.254%2f.google.com/', 'https://[::1]/x.google.com/', 'https://localhost./'),
    fc.array(topic, { maxLength: 3 }),
  )
  .map(([endpoint, topics]) => JSON.stringify({ endpoint, auth: 'YXV0aA', p256dh: 'cDI1NmRo', topics }));

const body = fc.oneof(
  fc.constant(''),
  junk,
  publishJson,
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc.uint8Array({ maxLength: 64 }).map((a) => Buffer.from(a).toString('latin1')),
  webPushJson,
  fc.constantFrom('{"username":"x","password":"y"}', '{"label":"l","expires":-1}', '{"topic":"t","everyone":"x"}', '{"a":'.repeat(50), 'a'.repeat(5000)),
);

export interface FuzzRequest {
  method: string;
  target: string;
  headers: [string, string][];
  body: string;
  chunked: boolean;
}

export const fuzzRequest: fc.Arbitrary<FuzzRequest> = fc.record({
  method: fc.oneof(fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'), fc.constantFrom('get', 'TRACE', 'CONNECT', 'FOO')),
  target: fc.tuple(path, query).map(([p, q]) => p + q),
  headers: fc.array(fc.oneof(...headerValues.map(([name, value]) => value.map((v): [string, string] => [name, v]))), { maxLength: 5 }),
  body,
  chunked: fc.boolean(),
});

/** The bytes of a request: header values keep their bytes (latin1 = raw), CR/LF taken out so the framing holds. */
export function encodeRequest(r: FuzzRequest, host: string): Buffer {
  const bytes = (s: string): string => Buffer.from(s, 'utf8').toString('latin1');
  const bodyBytes = Buffer.from(r.body, 'utf8');
  const lines = [`${r.method} ${bytes(r.target.replace(/\s/g, '%20'))} HTTP/1.1`, `Host: ${host}`];
  for (const [name, value] of r.headers) lines.push(`${name}: ${bytes(value.replace(/[\r\n]/g, ' '))}`);
  lines.push(r.chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${bodyBytes.length}`);
  const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
  if (!r.chunked) return Buffer.concat([head, bodyBytes]);
  const chunk = bodyBytes.length === 0 ? Buffer.alloc(0) : Buffer.concat([Buffer.from(`${bodyBytes.length.toString(16)}\r\n`), bodyBytes, Buffer.from('\r\n')]);
  return Buffer.concat([head, chunk, Buffer.from('0\r\n\r\n')]);
}
