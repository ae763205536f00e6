import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { publish, type Json } from '../support/clients.js';
import { startTestServer, tempDir, type TestServer } from '../support/server.js';

/**
 * Templated publishes (`Template:`/`tpl`): the built-in github, grafana and alertmanager
 * templates on real webhook payloads, inline templates, template-dir files and every error.
 * The expected titles and messages are what Go's text/template with ntfy's functions renders
 * from the same template files and payloads (tools/template-oracle/webhooks).
 */

const fixture = (name: string): string => readFileSync(new URL(`../../../test/fixtures/webhooks/${name}.json`, import.meta.url), 'utf8');

const templateDir = join(tempDir(), 'templates');
mkdirSync(templateDir);
writeFileSync(join(templateDir, 'grafana.yml'), 'title: "Grafana says {{ .status }}"\nmessage: "{{ len .alerts }} alert(s)"\n');
writeFileSync(join(templateDir, 'deploy.yml'), 'title: "Deployed {{ .app }} {{ .version }}"\nmessage: |\n  {{- range .hosts }}\n  - {{ . }}\n  {{- end }}\npriority: "{{ if .failed }}5{{ end }}"\n');
writeFileSync(join(templateDir, 'broken.yml'), 'title: [unclosed\n');
writeFileSync(join(templateDir, 'huge.yml'), `title: "${'x'.repeat(33 * 1024)}"\n`);

// One server on the built-in templates only, one with a template-dir that overrides grafana.
let builtin: TestServer;
let custom: TestServer;
before(async () => {
  builtin = await startTestServer({ 'template-dir': '' });
  custom = await startTestServer({ 'template-dir': templateDir });
});
after(() => Promise.all([builtin.server.close(), custom.server.close()]));

const sendTo = (server: () => TestServer) => (query: Record<string, string>, body: string, headers: Record<string, string> = {}): Promise<{ status: number; json: Json }> =>
  publish(`${server().url}/hooks?${new URLSearchParams(query).toString()}`, body, headers);
const send = sendTo(() => builtin);
const sendCustom = sendTo(() => custom);

/**
 * Go's rendering of the built-in templates on every fixture (tools/template-oracle/webhooks),
 * which also rendered ntfy's built-ins: "same" where ntfy gives this title and message,
 * "error: ..." where ntfy refuses the payload (Tocsin's own events, or an error for both).
 */
interface Expected {
  fixture: string;
  template: string;
  title?: string;
  message?: string;
  priority?: number;
  error?: string;
  ntfy: string;
}
const expected = (JSON.parse(readFileSync(new URL('../../../test/fixtures/webhooks.expected.json', import.meta.url), 'utf8')) as { cases: Expected[] }).cases;

describe('templates — built-in', () => {
  it('every fixture has an expectation, and ntfy renders all but Tocsin\'s own events the same', () => {
    const fixtures = readdirSync(new URL('../../../test/fixtures/webhooks/', import.meta.url)).map((f) => f.replace(/\.json$/, ''));
    assert.deepEqual(expected.map((e) => e.fixture).sort(), fixtures.sort());
    const ntfyRefuses = expected.filter((e) => e.ntfy !== 'same').map((e) => e.fixture);
    assert.deepEqual(ntfyRefuses, ['alertmanager-unknown-status', 'github-push', 'github-release', 'github-star-deleted', 'github-workflow_run']);
  });

  for (const e of expected) {
    it(`${e.template} renders ${e.fixture} (ntfy: ${e.ntfy === 'same' ? 'same' : 'refuses'})`, async () => {
      const { status, json } = await send({ tpl: e.template }, fixture(e.fixture));
      if (e.error !== undefined) {
        assert.deepEqual([status, json.code], [400, 40045], JSON.stringify(json));
        return;
      }
      assert.equal(status, 200, JSON.stringify(json));
      assert.deepEqual([json.title, json.message, json.priority], [e.title, e.message, e.priority]);
    });
  }
});

describe('templates — inline and files', () => {
  it('renders the message, title and priority parameters against the JSON body (tpl=1, Template: yes)', async () => {
    const body = JSON.stringify({ alert: 'Disk space low', host: 'srv1', used: 93.5, disks: ['sda', 'sdb'] });
    const query = await send({ tpl: '1', m: 'Alert: {{.alert}} on {{.host}} ({{.used}}%)', t: '{{ .host | upper }}', p: '{{ if gt .used 90.0 }}high{{ end }}' }, body);
    assert.deepEqual([query.status, query.json.message, query.json.title, query.json.priority], [200, 'Alert: Disk space low on srv1 (93.5%)', 'SRV1', 4]);
    const headers = await send({}, body, { 'X-Template': 'yes', 'X-Message': '{{ join "," .disks }}\\n{{ len .disks }} disks', 'X-Title': '{{ .missing }}' });
    assert.deepEqual([headers.json.message, headers.json.title], ['sda,sdb\n2 disks', '<no value>']);
  });

  it('an empty result leaves the default message; a false word turns templating off', async () => {
    const empty = await send({ tpl: 'yes', m: '{{ .nothing | default "" }}' }, '{}');
    assert.equal(empty.json.message, 'triggered');
    const off = await send({ tpl: 'no', m: '{{ .x }}' }, '');
    assert.equal(off.json.message, '{{ .x }}');
  });

  it('a template-dir file is used by name and overrides a built-in of the same name', async () => {
    const own = await sendCustom({ tpl: 'deploy' }, JSON.stringify({ app: 'shop', version: 'v2', hosts: ['a', 'b'], failed: true }));
    assert.deepEqual([own.status, own.json.title, own.json.message, own.json.priority], [200, 'Deployed shop v2', '- a\n- b', 5]);
    const replaced = await sendCustom({ tpl: 'deploy', p: 'low' }, JSON.stringify({ app: 'shop', version: 'v3', hosts: [], failed: false }));
    assert.equal(replaced.json.priority, undefined, 'a file\'s priority replaces the parameter, also when it renders none (as ntfy)');
    const overridden = await sendCustom({ tpl: 'grafana', p: 'low' }, fixture('grafana-resolved'));
    assert.deepEqual([overridden.json.title, overridden.json.message, overridden.json.priority], ['Grafana says resolved', '2 alert(s)', 2], 'no priority in the file: the parameter stands');
  });
});

describe('templates — newlines and trimming', () => {
  // ntfy's TestServer_MessageTemplate_Range: a range ending each line in a typed "\n" (backslash,
  // n). ntfy 2.14+ trims the rendered result with strings.TrimSpace, so no trailing newline is
  // left (ntfy 2.13 kept one).
  const errors = JSON.stringify({ foo: 'bar', errors: [{ level: 'severe', url: 'https://severe1.com' }, { level: 'warning', url: 'https://warning.com' }, { level: 'severe', url: 'https://severe2.com' }] });
  const range = 'Severe URLs:\\n{{range .errors}}{{if eq .level "severe"}}- {{.url}}\\n{{end}}{{end}}';

  it('a typed \\n in the message header or parameter is a newline, and the result is trimmed', async () => {
    const header = await send({}, errors, { 'X-Template': '1', 'X-Message': range });
    const query = await send({ tpl: '1', m: range }, errors);
    for (const res of [header, query]) assert.deepEqual([res.status, res.json.message], [200, 'Severe URLs:\n- https://severe1.com\n- https://severe2.com']);
  });

  it('in the title, and in the data, a typed \\n left in the output is a newline too', async () => {
    const res = await send({}, JSON.stringify({ levels: ['severe', 'warning'], text: 'line 1\\nline 2' }), { 'X-Template': 'yes', 'X-Title': '{{ range .levels }}{{ . }}\\n{{ end }}', 'X-Message': '{{ .text }}' });
    assert.deepEqual([res.json.title, res.json.message], ['severe\nwarning', 'line 1\nline 2']);
  });

  it('trims as Go\'s TrimSpace: U+0085 is space, a byte-order mark is not', async () => {
    const res = await send({ tpl: '1', m: '{{ .s }}' }, JSON.stringify({ s: '\ufeffbar\u0085 ' }));
    assert.equal(res.json.message, '\ufeffbar');
    const bom = await send({ tpl: '1', m: '{{ .s }}' }, '\ufeff{"s":"x"}');
    assert.deepEqual([bom.status, bom.json.code], [400, 40042], 'ntfy keeps the mark, and Go\'s JSON refuses it');
    const nel = await send({ tpl: '1', m: '{{ .s }}' }, '{"s":"x"}\u0085');
    assert.deepEqual([nel.status, nel.json.message], [200, 'x']);
  });
});

describe('templates — errors', () => {
  const cases: [string, Record<string, string>, string, number, number][] = [
    ['template file not YAML of fields', { tpl: 'broken' }, '{}', 400, 40048],
    ['template longer than 32 KB', { tpl: 'huge' }, '{}', 400, 40056],
    ['body not JSON', { tpl: '1', m: '{{.a}}' }, 'not json', 400, 40042],
    ['a number out of float64 range', { tpl: '1', m: '{{.a}}' }, '{"a":1e400}', 400, 40042],
    ['template cannot be parsed', { tpl: '1', m: '{{ .a ' }, '{}', 400, 40043],
    ['unknown function', { tpl: '1', m: '{{ nosuchfunc .a }}' }, '{}', 400, 40043],
    ['template action', { tpl: '1', m: '{{ template "x" }}' }, '{}', 400, 40044],
    ['define', { tpl: '1', m: '{{ define "x" }}y{{ end }}' }, '{}', 400, 40044],
    ['call', { tpl: '1', m: '{{ call .f }}' }, '{}', 400, 40044],
    ['execution fails', { tpl: '1', m: '{{ fail "stop here" }}' }, '{}', 400, 40045],
    ['index out of range', { tpl: '1', m: '{{ index .list 5 }}' }, '{"list":[1]}', 400, 40045],
    ['result longer than message-size-limit', { tpl: '1', m: '{{ repeat 5000 "x" }}' }, '{}', 400, 40041],
    ['rendered priority is none', { tpl: '1', p: '{{ .p }}' }, '{"p":"superhigh"}', 400, 40007],
    ['unknown template file', { tpl: 'nosuch' }, '{}', 400, 40047],
    ['template name with a path', { tpl: '../etc/passwd' }, '{}', 400, 40047],
  ];
  for (const [name, query, body, status, code] of cases) {
    it(`${name} → ${code}`, async () => {
      const res = await sendCustom(query, body);
      assert.deepEqual([res.status, res.json.code], [status, code], JSON.stringify(res.json));
    });
  }

  it('a JSON body over 32 KB → 41303; up to it is fine even past message-size-limit', async () => {
    const big = await send({ tpl: '1', m: '{{ len .a }}' }, JSON.stringify({ a: 'x'.repeat(40 * 1024) }));
    assert.deepEqual([big.status, big.json.code], [413, 41303]);
    const ok = await send({ tpl: '1', m: '{{ len .a }}' }, JSON.stringify({ a: 'x'.repeat(20 * 1024) }));
    assert.deepEqual([ok.status, ok.json.message], [200, '20480']);
  });

  it('a runaway template is stopped (40045) and the server goes on', async () => {
    const started = Date.now();
    const res = await send({ tpl: '1', m: '{{ range until 100000 }}{{ range until 100000 }}{{ end }}{{ end }}' }, '{}');
    assert.deepEqual([res.status, res.json.code], [400, 40045]);
    assert.ok(Date.now() - started < 3000, `took ${Date.now() - started} ms`);
    const next = await send({ tpl: '1', m: '{{ .ok }}' }, '{"ok":"still here"}');
    assert.equal(next.json.message, 'still here');
  });
});
