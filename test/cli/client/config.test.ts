import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { basicAuth, subscriptionAuth } from '../../../src/cli/client/auth.js';
import { Backoff } from '../../../src/cli/client/backoff.js';
import { defaultConfigFile, emptyConfig, loadClientConfig, parseClientConfig, type ConfigSubscription } from '../../../src/cli/client/client-config.js';
import { ClientError } from '../../../src/cli/client/client-error.js';
import { jsonLines } from '../../../src/cli/client/json-lines.js';
import { messageEnv } from '../../../src/cli/client/message-command.js';
import { progressLine } from '../../../src/cli/client/progress-bar.js';
import { tempDir } from '../../support/server.js';

describe('client.yml', () => {
  it('reads ntfy\'s keys; scalars keep their text, "" differs from no value', () => {
    const config = parseClientConfig(`
default-host: https://ntfy.example.com
default-user: phil
default-password: 0123
default-command: echo "$m"
subscribe:
  - topic: alerts
    command: notify-send "$m"
    if:
      priority: high,urgent
      tags: [disk, warning]
  - topic: secret
    user: ben
    password: ""
  - topic: open
    token: ""
`);
    assert.deepEqual(config, {
      defaultHost: 'https://ntfy.example.com',
      defaultUser: 'phil',
      defaultPassword: '0123',
      defaultToken: '',
      defaultCommand: 'echo "$m"',
      subscribe: [
        { topic: 'alerts', user: undefined, password: undefined, token: undefined, command: 'notify-send "$m"', if: { priority: 'high,urgent', tags: 'disk,warning' } },
        { topic: 'secret', user: 'ben', password: '', token: undefined, command: '', if: {} },
        { topic: 'open', user: undefined, password: undefined, token: '', command: '', if: {} },
      ],
    });
    assert.deepEqual(parseClientConfig('default-password:\n'), emptyConfig());
    assert.deepEqual(parseClientConfig(''), emptyConfig());
  });

  it('names the key of the wrong shape', () => {
    assert.throws(() => parseClientConfig('subscribe: alerts'), new ClientError('client.yml: subscribe must be a list'));
    assert.throws(() => parseClientConfig('subscribe:\n  - command: x'), new ClientError('client.yml: subscribe[0]: topic missing'));
    assert.throws(() => parseClientConfig('default-host: [a]'), new ClientError('client.yml: default-host must be a string'));
    assert.throws(() => parseClientConfig('subscribe:\n  - topic: t\n    if: high'), new ClientError('client.yml: subscribe[0].if must be a mapping'));
    assert.throws(() => parseClientConfig('a: [b'), ClientError);
  });

  it('any text is a config or a ClientError, never another failure', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        try {
          assert.equal(typeof parseClientConfig(text).defaultHost, 'string');
        } catch (err) {
          assert.ok(err instanceof ClientError, String(err));
        }
      }),
    );
  });

  it('is found at ntfy\'s places: /etc/ntfy for root, else the XDG or ~/.config directory', () => {
    assert.equal(defaultConfigFile({ HOME: '/home/p' }, 0), '/etc/ntfy/client.yml');
    assert.equal(defaultConfigFile({ HOME: '/home/p' }, 1000), '/home/p/.config/ntfy/client.yml');
    assert.equal(defaultConfigFile({ HOME: '/home/p', XDG_CONFIG_HOME: '/x' }, 1000), '/x/ntfy/client.yml');
    assert.equal(defaultConfigFile({}, 1000), undefined);
  });

  it('loads --config, else the default file when it exists, else the defaults', () => {
    const home = tempDir();
    assert.deepEqual(loadClientConfig(undefined, { HOME: home }, 1000), emptyConfig());
    writeFileSync(join(home, 'c.yml'), 'default-host: http://given\n');
    assert.equal(loadClientConfig(join(home, 'c.yml'), { HOME: home }, 1000).defaultHost, 'http://given');
    assert.throws(() => loadClientConfig(join(home, 'none.yml'), {}, 1000), new ClientError(`open ${join(home, 'none.yml')}: no such file or directory`));
    mkdirSync(join(home, 'xdg', 'ntfy'), { recursive: true });
    writeFileSync(join(home, 'xdg', 'ntfy', 'client.yml'), 'default-host: http://xdg\n');
    assert.equal(loadClientConfig(undefined, { HOME: home, XDG_CONFIG_HOME: join(home, 'xdg') }, 1000).defaultHost, 'http://xdg');
  });
});

describe('client credentials of a subscription', () => {
  const sub = (fields: Partial<ConfigSubscription>): ConfigSubscription => ({ topic: 't', command: '', if: {}, ...fields });
  const config = { ...emptyConfig(), defaultUser: 'def', defaultPassword: 'pw' };

  it('its own token or user, then the defaults, then the command line; "" sends none', () => {
    assert.equal(subscriptionAuth(sub({ token: 'tk_a', user: 'u', password: 'p' }), config, undefined), 'Bearer tk_a');
    assert.equal(subscriptionAuth(sub({ user: 'u', password: 'p' }), config, undefined), basicAuth('u', 'p'));
    assert.equal(subscriptionAuth(sub({}), config, 'Bearer tk_cli'), basicAuth('def', 'pw'));
    assert.equal(subscriptionAuth(sub({}), { ...config, defaultToken: 'tk_d' }, undefined), 'Bearer tk_d');
    assert.equal(subscriptionAuth(sub({}), emptyConfig(), 'Bearer tk_cli'), 'Bearer tk_cli');
    assert.equal(subscriptionAuth(sub({ token: '' }), config, 'Bearer tk_cli'), undefined);
    assert.equal(subscriptionAuth(sub({ user: '', password: '' }), config, 'Bearer tk_cli'), undefined);
  });
});

describe('client subscription parts', () => {
  it('backoff doubles from 1 s to at most 60 s and starts over after a connection', () => {
    const backoff = new Backoff();
    assert.deepEqual(Array.from({ length: 8 }, () => backoff.next()), [1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000]);
    backoff.reset();
    assert.equal(backoff.next(), 1000);
  });

  it('splits a stream into its lines however it is chunked, multi-byte characters included', async () => {
    const text = '{"a":"é🎉"}\n\n{"b":1}\n{"c":2}';
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(), { maxLength: 6 }), async (cuts) => {
        const bytes = Buffer.from(text);
        const points = [...new Set(cuts.map((c) => c % bytes.length))].sort((a, b) => a - b);
        const chunks = [0, ...points].map((start, i) => bytes.subarray(start, [...points, bytes.length][i]));
        const lines: string[] = [];
        for await (const line of jsonLines((async function* () { yield* chunks; })())) lines.push(line);
        assert.deepEqual(lines, ['{"a":"é🎉"}', '{"b":1}', '{"c":2}']);
      }),
    );
  });

  it('gives a command ntfy\'s variables and aliases, and $click', () => {
    const raw = '{"id":"abc","time":1700000000,"event":"message","topic":"t","message":"m1","title":"T","tags":["a","b"],"click":"https://c"}';
    const env = messageEnv({ raw, message: JSON.parse(raw) });
    assert.deepEqual(env, {
      NTFY_ID: 'abc', id: 'abc', NTFY_TOPIC: 't', topic: 't', NTFY_TIME: '1700000000', time: '1700000000',
      NTFY_MESSAGE: 'm1', message: 'm1', m: 'm1', NTFY_TITLE: 'T', title: 'T', t: 'T',
      NTFY_PRIORITY: '3', priority: '3', prio: '3', p: '3', NTFY_TAGS: 'a,b', tags: 'a,b', tag: 'a,b', ta: 'a,b',
      NTFY_CLICK: 'https://c', click: 'https://c', NTFY_RAW: raw, raw,
    });
  });

  it('draws the upload progress as a bar, a percentage and sizes', () => {
    assert.equal(progressLine(0, 2048, 10), '[          ]   0%  0 bytes / 2.0 KB');
    assert.equal(progressLine(1024, 2048, 10), '[====>     ]  50%  1.0 KB / 2.0 KB');
    assert.equal(progressLine(2048, 2048, 10), '[==========] 100%  2.0 KB / 2.0 KB');
    assert.equal(progressLine(0, 0, 4), '[====] 100%  0 bytes / 0 bytes');
  });
});
