import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { publish, type Json } from '../support/clients.js';
import { startTestServer, type TestServer } from '../support/server.js';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(() => s.server.close());

async function poll(topic: string, query = ''): Promise<Json[]> {
  const res = await fetch(`${s.url}/${topic}/json?poll=1${query}`);
  const text = await res.text();
  return text === '' ? [] : text.trimEnd().split('\n').map((line) => JSON.parse(line) as Json);
}

describe('publish — paths', () => {
  it('POST /{topic} answers the message JSON and caches it', async () => {
    const { status, json } = await publish(`${s.url}/backups`, 'Backup done');
    assert.equal(status, 200);
    assert.equal(json.event, 'message');
    assert.equal(json.topic, 'backups');
    assert.equal(json.message, 'Backup done');
    assert.match(String(json.id), /^[a-zA-Z0-9]{12}$/);
    assert.equal(typeof json.time, 'number');
    assert.equal(json.expires, (json.time as number) + 12 * 3600);
    const cached = await poll('backups');
    assert.deepEqual(cached.map((m) => m.id), [json.id]);
  });

  it('PUT /{topic} works like POST and trims the body', async () => {
    const { status, json } = await publish(`${s.url}/put-topic`, '  hello \n', {}, 'PUT');
    assert.equal(status, 200);
    assert.equal(json.message, 'hello');
  });

  it('an empty body becomes "triggered"', async () => {
    const { json } = await publish(`${s.url}/empty-topic`, '');
    assert.equal(json.message, 'triggered');
  });

  for (const verb of ['publish', 'send', 'trigger']) {
    it(`GET /{topic}/${verb} publishes from query parameters`, async () => {
      const { status, json } = await publish(`${s.url}/get-${verb}/${verb}?message=Hi%20there&title=T&p=high&tags=a,b`, '', {}, 'GET');
      assert.equal(status, 200);
      assert.equal(json.topic, `get-${verb}`);
      assert.equal(json.message, 'Hi there');
      assert.equal(json.title, 'T');
      assert.equal(json.priority, 4);
      assert.deepEqual(json.tags, ['a', 'b']);
    });
  }

  it('GET /{topic}/trigger without parameters sends "triggered"', async () => {
    const { json } = await publish(`${s.url}/trig/trigger`, '', {}, 'GET');
    assert.equal(json.message, 'triggered');
  });

  it('POST /{topic}/{sequence_id} sets sequence_id', async () => {
    const { json } = await publish(`${s.url}/seq-topic/job-42`, 'Running');
    assert.equal(json.sequence_id, 'job-42');
    assert.equal(json.topic, 'seq-topic');
  });

  it('POST / with a JSON body publishes every field', async () => {
    const body = {
      topic: 'json-topic',
      message: 'Disk full',
      title: 'Alert',
      priority: 5,
      tags: ['warning', 'disk'],
      click: 'https://example.com/',
      icon: 'https://example.com/i.png',
      attach: 'https://example.com/file.pdf',
      filename: 'report.pdf',
      markdown: true,
      actions: [{ action: 'view', label: 'Open', url: 'https://example.com' }],
      sequence_id: 'disk-1',
    };
    const { status, json } = await publish(`${s.url}/`, JSON.stringify(body));
    assert.equal(status, 200);
    assert.equal(json.topic, 'json-topic');
    assert.equal(json.message, 'Disk full');
    assert.equal(json.title, 'Alert');
    assert.equal(json.priority, 5);
    assert.deepEqual(json.tags, ['warning', 'disk']);
    assert.equal(json.click, 'https://example.com/');
    assert.equal(json.icon, 'https://example.com/i.png');
    assert.deepEqual(json.attachment, { name: 'report.pdf', url: 'https://example.com/file.pdf' });
    assert.equal(json.content_type, 'text/markdown');
    assert.equal(json.sequence_id, 'disk-1');
    const actions = json.actions as Json[];
    assert.equal(actions.length, 1);
    assert.equal(actions[0]?.action, 'view');
    assert.equal(actions[0]?.label, 'Open');
    assert.equal(actions[0]?.url, 'https://example.com');
    assert.equal(actions[0]?.clear, false);
  });

  it('POST / without a message sends "triggered"', async () => {
    const { json } = await publish(`${s.url}/`, JSON.stringify({ topic: 'json-empty' }));
    assert.equal(json.message, 'triggered');
  });
});

describe('publish — parameters', () => {
  it('reads every alias of title, priority and tags, in headers or query', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ 'X-Title': 'a' }, ''],
      [{ Title: 'a' }, ''],
      [{ ti: 'a' }, ''],
      [{ t: 'a' }, ''],
      [{}, '?title=a'],
      [{}, '?t=a'],
      [{}, '?ti=a'],
    ];
    for (const [headers, query] of cases) {
      const { json } = await publish(`${s.url}/alias${query}`, 'x', headers);
      assert.equal(json.title, 'a', JSON.stringify({ headers, query }));
    }
    for (const name of ['X-Priority', 'Priority', 'prio', 'p']) {
      const { json } = await publish(`${s.url}/alias`, 'x', { [name]: 'urgent' });
      assert.equal(json.priority, 5, name);
    }
    for (const name of ['X-Tags', 'Tags', 'Tag', 'ta']) {
      const { json } = await publish(`${s.url}/alias`, 'x', { [name]: 'one, two' });
      assert.deepEqual(json.tags, ['one', 'two'], name);
    }
  });

  it('header names are case-insensitive, query names lower-case only (as ntfy)', async () => {
    const { json } = await publish(`${s.url}/case?TITLE=q&t=lower`, 'x', { 'x-PRIORITY': '2' });
    assert.equal(json.title, 'lower');
    assert.equal(json.priority, 2);
  });

  it('priority words and numbers map to 1-5', async () => {
    const words: [string, number][] = [['min', 1], ['low', 2], ['default', 3], ['high', 4], ['max', 5], ['urgent', 5], ['1', 1], ['5', 5]];
    for (const [word, value] of words) {
      const { json } = await publish(`${s.url}/prio`, 'x', { Priority: word });
      assert.equal(json.priority, value, word);
    }
  });

  it('decodes RFC 2047 base64 and quoted-printable headers, and raw UTF-8', async () => {
    const b = await publish(`${s.url}/enc`, 'x', { Title: '=?UTF-8?B?SGVsbG8g8J+Riw==?=' });
    assert.equal(b.json.title, 'Hello 👋');
    const q = await publish(`${s.url}/enc`, 'x', { Title: '=?UTF-8?Q?Gr=C3=BC=C3=9Fe?=' });
    assert.equal(q.json.title, 'Grüße');
  });

  it('X-Message sets the body and turns \\n into a newline', async () => {
    const { json } = await publish(`${s.url}/msg`, '', { 'X-Message': 'line1\\nline2' });
    assert.equal(json.message, 'line1\nline2');
  });

  it('Markdown: flag or Content-Type: text/markdown', async () => {
    const variants: Record<string, string>[] = [{ Markdown: 'yes' }, { md: '1' }, { 'X-Markdown': 'true' }, { 'Content-Type': 'text/markdown' }];
    for (const headers of variants) {
      const { json } = await publish(`${s.url}/md`, '**bold**', headers);
      assert.equal(json.content_type, 'text/markdown', JSON.stringify(headers));
    }
    const { json } = await publish(`${s.url}/md`, 'plain');
    assert.equal(json.content_type, undefined);
  });

  it('click and icon', async () => {
    const { json } = await publish(`${s.url}/ci`, 'x', { Click: 'mailto:a@b.c', Icon: 'https://x.y/i.jpg' });
    assert.equal(json.click, 'mailto:a@b.c');
    assert.equal(json.icon, 'https://x.y/i.jpg');
  });

  it('actions in the short header format', async () => {
    const { json } = await publish(`${s.url}/act`, 'x', {
      Actions: 'view, Open portal, https://home.nest.com/, clear=true; http, "Turn down, now", https://api.nest.com/, method=PUT, headers.Authorization=Bearer zAzsx1sk, body={"temp": 65}',
    });
    const actions = json.actions as Json[];
    assert.equal(actions.length, 2);
    assert.deepEqual({ ...actions[0], id: undefined }, { id: undefined, action: 'view', label: 'Open portal', clear: true, url: 'https://home.nest.com/' });
    assert.equal(actions[1]?.label, 'Turn down, now');
    assert.equal(actions[1]?.method, 'PUT');
    assert.deepEqual(actions[1]?.headers, { Authorization: 'Bearer zAzsx1sk' });
    assert.equal(actions[1]?.body, '{"temp": 65}');
  });

  it('Attach by URL names the file after the URL', async () => {
    const { json } = await publish(`${s.url}/att`, 'see file', { Attach: 'https://example.com/files/flower.jpg' });
    assert.deepEqual(json.attachment, { name: 'flower.jpg', url: 'https://example.com/files/flower.jpg' });
    assert.equal(json.message, 'see file');
  });

  it('Cache: no reaches no replay and carries no expires', async () => {
    const { json } = await publish(`${s.url}/nocache`, 'volatile', { Cache: 'no' });
    assert.equal(json.expires, undefined);
    assert.deepEqual(await poll('nocache'), []);
  });

  it('Firebase: no and Relay: no are accepted', async () => {
    const variants: Record<string, string>[] = [{ Firebase: 'no' }, { 'X-Relay': 'no' }];
    for (const headers of variants) {
      const { status } = await publish(`${s.url}/relay`, 'x', headers);
      assert.equal(status, 200);
    }
  });

  it('up=1 passes UTF-8 untrimmed and base64-encodes binary bodies', async () => {
    const text = await publish(`${s.url}/upAbc123?up=1`, ' {"x":1} ');
    assert.equal(text.json.message, ' {"x":1} ');
    assert.equal(text.json.encoding, undefined);
    const binary = Buffer.from([0xff, 0xfe, 0x00, 0x80]);
    const bin = await publish(`${s.url}/upAbc123`, binary, { 'X-AltPush': '1' });
    assert.equal(bin.json.message, binary.toString('base64'));
    assert.equal(bin.json.encoding, 'base64');
  });

  it('Poll-ID publishes a poll_request event that is not cached', async () => {
    const { json } = await publish(`${s.url}/pollreq`, 'secret body', { 'Poll-ID': 'abc123' });
    assert.equal(json.event, 'poll_request');
    assert.equal(json.poll_id, 'abc123');
    assert.equal(json.message, 'New message');
    assert.deepEqual(await poll('pollreq'), []);
  });

  it('a delayed message is scheduled: hidden from polls unless scheduled=1', async () => {
    const { status, json } = await publish(`${s.url}/later`, 'wake up', { In: '30m' });
    assert.equal(status, 200);
    const now = Math.floor(Date.now() / 1000);
    assert.ok(Math.abs((json.time as number) - (now + 1800)) <= 2);
    assert.deepEqual(await poll('later'), []);
    const scheduled = await poll('later', '&scheduled=1');
    assert.deepEqual(scheduled.map((m) => m.id), [json.id]);
  });
});

describe('misc endpoints', () => {
  it('GET /v1/health', async () => {
    const res = await fetch(`${s.url}/v1/health`);
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { healthy: true });
  });

  it('GET /v1/stats counts published messages', async () => {
    const res = await fetch(`${s.url}/v1/stats`);
    const stats = (await res.json()) as Json;
    assert.equal(typeof stats.messages, 'number');
    assert.ok((stats.messages as number) > 0);
    assert.equal(typeof stats.messages_rate, 'number');
  });

  it('GET /{topic}?up=1 answers UnifiedPush discovery', async () => {
    const res = await fetch(`${s.url}/upTopic?up=1`);
    assert.deepEqual(await res.json(), { unifiedpush: { version: 1 } });
  });

  it('CORS: responses allow any origin and OPTIONS answers the preflight', async () => {
    const res = await fetch(`${s.url}/cors`, { method: 'OPTIONS' });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    assert.equal(res.headers.get('access-control-allow-methods'), 'GET, PUT, POST, PATCH, DELETE');
    assert.equal(res.headers.get('access-control-allow-headers'), '*, Authorization');
    const pub = await fetch(`${s.url}/cors`, { method: 'POST', body: 'x' });
    assert.equal(pub.headers.get('access-control-allow-origin'), '*');
  });

  it('GET /{topics}/auth answers success without access control', async () => {
    const res = await fetch(`${s.url}/a,b/auth`);
    assert.deepEqual(await res.json(), { success: true });
  });
});
