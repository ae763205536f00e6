import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { philAccess, runClient, type ClientRun } from '../../support/cli-client.js';
import { LineStream, type Json } from '../../support/clients.js';
import { SmtpSink } from '../../support/smtp.js';
import { startTestServer, tempDir, type TestServer } from '../../support/server.js';

/** `tocsin publish` as a child process against a real server, checked by what a poll or a subscriber receives. */

const token = 'tk_0123456789abcdefghijklmnopqrs';
const dir = tempDir();
// At the top level: a sink started in `before` would be closed when `before` ends.
const sink = await SmtpSink.start();
let s: TestServer;
before(async () => {
  s = await startTestServer({
    'base-url': 'http://tocsin.test',
    'attachment-cache-dir': join(dir, 'attachments'),
    'smtp-sender-addr': sink.address,
    'smtp-sender-from': 'tocsin@example.com',
    ...philAccess(dir, token),
  });
});
after(() => s.server.close());

async function polled(topic: string, query = ''): Promise<Json[]> {
  const text = await (await fetch(`${s.url}/${topic}/json?poll=1${query}`, { headers: { Authorization: `Bearer ${token}` } })).text();
  return text.trim() === '' ? [] : text.trim().split('\n').map((line) => JSON.parse(line) as Json);
}

/** The message `run` printed, checked to be what a poll of its topic returns. */
async function published(run: ClientRun, topic: string): Promise<Json> {
  assert.deepEqual([run.code, run.stderr], [0, '']);
  const printed = JSON.parse(run.stdout) as Json;
  const cached = (await polled(topic, '&scheduled=1')).find((m) => m.id === printed.id);
  assert.deepEqual(cached, printed);
  return printed;
}

const without = (m: Json, ...keys: string[]): Json => Object.fromEntries(Object.entries(m).filter(([k]) => ![...keys, 'id', 'time', 'expires'].includes(k)));

describe('tocsin publish — flags', () => {
  it('sends the message with title, priority, tags, click, icon, actions, attach, markdown and sequence id', async () => {
    const run = await runClient([
      'publish', '--title=Disk full', '-p', 'high', '--tags', 'warning,disk', '--click', 'https://status.example.com', '--icon', 'https://example.com/i.png',
      '--actions', 'view, Open status, https://status.example.com', '--attach', 'https://example.com/log.txt', '--md', '--sequence-id', 'disk-1',
      `${s.url}/flags`, 'Only', '2%', 'left', 'on', '**/srv**',
    ]);
    const m = await published(run, 'flags');
    assert.deepEqual(without(m, 'actions'), {
      event: 'message', topic: 'flags', sequence_id: 'disk-1', title: 'Disk full', message: 'Only 2% left on **/srv**', priority: 4, tags: ['warning', 'disk'],
      click: 'https://status.example.com', icon: 'https://example.com/i.png', attachment: { name: 'log.txt', url: 'https://example.com/log.txt' }, content_type: 'text/markdown',
    });
    assert.deepEqual((m.actions as Json[]).map((a) => [a.action, a.label, a.url]), [['view', 'Open status', 'https://status.example.com']]);
  });

  it('the aliases pub, send and trigger, -m, and an empty message as ntfy\'s "triggered"', async () => {
    await published(await runClient(['pub', '-m', 'from -m', `${s.url}/aliases`, 'ignored']), 'aliases');
    assert.deepEqual(await runClient(['send', '-q', `${s.url}/aliases`, 'quiet']), { code: 0, stdout: '', stderr: '' });
    const trigger = await published(await runClient(['trigger', `${s.url}/aliases`]), 'aliases');
    assert.equal(trigger.message, 'triggered');
    assert.deepEqual((await polled('aliases')).map((m) => m.message), ['from -m', 'quiet', 'triggered']);
  });

  it('--delay (also --at, --in) schedules the message', async () => {
    const before = Math.floor(Date.now() / 1000);
    const m = await published(await runClient(['pub', '--in', '1h', `${s.url}/later`, 'Laterzz']), 'later');
    assert.ok((m.time as number) >= before + 3600 && (m.time as number) <= Date.now() / 1000 + 3600, String(m.time));
    assert.deepEqual(await polled('later'), [], 'not due yet');
    const at = await runClient(['pub', '--at', 'nonsense o\'clock', `${s.url}/later`, 'x']);
    assert.deepEqual([at.code, JSON.parse(at.stderr).code], [1, 40004]);
  });

  it('--no-cache reaches live subscribers only; --no-firebase is accepted', async () => {
    const live = new LineStream(`${s.url}/nocache/json`);
    assert.equal((await live.nextJson()).event, 'open');
    const run = await runClient(['pub', '--no-cache', '--no-firebase', `${s.url}/nocache`, 'fleeting']);
    assert.equal(run.code, 0);
    assert.deepEqual(without(await live.nextJson()), { event: 'message', topic: 'nocache', message: 'fleeting' });
    live.close();
    assert.deepEqual(await polled('nocache'), []);
  });

  it('--email forwards the message by e-mail; --call gets the server\'s error', async () => {
    await published(await runClient(['pub', '-e', 'phil@example.com', '-t', 'Mail me', `${s.url}/mail`, 'By mail too']), 'mail');
    const mail = await sink.mails.take(10_000);
    assert.deepEqual([mail.to, mail.parsed.subject], [['phil@example.com'], 'Mail me']);
    const call = await runClient(['pub', '--call', 'yes', `${s.url}/mail`, 'ring']);
    assert.deepEqual([call.code, JSON.parse(call.stderr).code], [1, 40032]);
  });

  it('flags from NTFY_* variables, and NTFY_TOPIC making every argument message', async () => {
    const run = await runClient(['publish', 'from', 'env'], { env: { NTFY_TOPIC: `${s.url}/envtopic`, NTFY_TITLE: 'Env title', NTFY_PRIORITY: '5', NTFY_TAGS: 'x' } });
    assert.deepEqual(without(await published(run, 'envtopic')), { event: 'message', topic: 'envtopic', title: 'Env title', message: 'from env', priority: 5, tags: ['x'] });
  });
});

describe('tocsin publish — stdin and files', () => {
  it('reads a piped message when no argument gives one, trimmed', async () => {
    const m = await published(await runClient(['pub', `${s.url}/stdin`], { input: '  backup done\n' }), 'stdin');
    assert.equal(m.message, 'backup done');
    const given = await published(await runClient(['pub', `${s.url}/stdin`, 'argument wins'], { input: 'ignored' }), 'stdin');
    assert.equal(given.message, 'argument wins');
  });

  it('--file uploads the file as an attachment, with the message and --filename', async () => {
    const file = join(dir, 'report.txt');
    writeFileSync(file, 'line 1\nline 2\n');
    const m = await published(await runClient(['pub', '--file', file, `${s.url}/files`, 'Nightly report']), 'files');
    assert.deepEqual(without(m, 'attachment'), { event: 'message', topic: 'files', message: 'Nightly report' });
    const attachment = m.attachment as Json;
    assert.deepEqual([attachment.name, attachment.size, attachment.type], ['report.txt', 14, 'text/plain; charset=utf-8']);
    const download = await fetch(String(attachment.url).replace('http://tocsin.test', s.url));
    assert.equal(await download.text(), 'line 1\nline 2\n');
    const named = await published(await runClient(['pub', '-f', file, '-n', 'renamed.log', `${s.url}/files`]), 'files');
    assert.deepEqual([(named.attachment as Json).name, named.message], ['renamed.log', 'You received a file: renamed.log']);
  });

  it('--file - uploads stdin (named "stdin"), and draws no progress bar off a terminal', async () => {
    const bytes = Buffer.alloc(70_000, 7);
    const run = await runClient(['pub', '--file=-', `${s.url}/files`, 'piped file'], { input: bytes });
    const m = await published(run, 'files');
    assert.deepEqual([(m.attachment as Json).name, (m.attachment as Json).size, m.message], ['stdin', 70_000, 'piped file']);
    assert.equal(run.stderr, '');
  });

  it('a file that is not there is an error in Go\'s words', async () => {
    const run = await runClient(['pub', '--file', join(dir, 'none.bin'), `${s.url}/files`]);
    assert.deepEqual(run, { code: 1, stdout: '', stderr: `open ${join(dir, 'none.bin')}: no such file or directory\n` });
  });
});

describe('tocsin publish — waiting for a command or a process', () => {
  it('--wait-cmd runs the trailing command and publishes its exit status as ntfy words it', async () => {
    const ok = await published(await runClient(['pub', '--wait-cmd', `${s.url}/done`, 'sh', '-c', 'exit 0']), 'done');
    assert.match(ok.message as string, /^Command succeeded after \d+(\.\d+)?m?s: sh -c "exit 0"$/);
    const failed = await published(await runClient(['pub', '--cmd', `${s.url}/done`, 'sh', '-c', 'exit 23']), 'done');
    assert.match(failed.message as string, /^Command failed after \d+(\.\d+)?m?s \(exit code 23\): sh -c "exit 23"$/);
    const titled = await published(await runClient(['pub', '--done', '-m', 'custom', `${s.url}/done`, 'true']), 'done');
    assert.equal(titled.message, 'custom');
  });

  it('--wait-cmd: a command that cannot start is an error, a missing command too', async () => {
    const run = await runClient(['pub', '--wait-cmd', `${s.url}/done`, '/nonexistent/cmd']);
    assert.deepEqual([run.code, run.stderr], [1, 'command failed: /nonexistent/cmd, error: spawn /nonexistent/cmd ENOENT\n']);
    const none = await runClient(['pub', '--wait-cmd', `${s.url}/done`]);
    assert.deepEqual([none.code, none.stderr], [1, "must specify command when --wait-cmd is passed, type 'tocsin publish --help' for help\n"]);
  });

  it('--wait-pid publishes once the process has ended', async () => {
    const sleeper = spawn('sleep', ['2']);
    const exited = new Promise((resolve) => sleeper.once('exit', resolve));
    const run = runClient(['pub', '--wait-pid', String(sleeper.pid), `${s.url}/pid`]);
    assert.equal(await Promise.race([run.then(() => 'published'), exited.then(() => 'exited')]), 'exited');
    const m = await published(await run, 'pid');
    assert.match(m.message as string, new RegExp(`^Process with PID ${sleeper.pid} exited after \\d+(\\.\\d+)?m?s$`));
    const gone = await runClient(['pub', '--pid', String(sleeper.pid), `${s.url}/pid`]);
    assert.deepEqual([gone.code, gone.stderr], [1, `process with PID ${sleeper.pid} not running\n`]);
  });
});

describe('tocsin publish — authentication and errors', () => {
  it('user:password, a user whose password is read from stdin, a token, NTFY_USER', async () => {
    await published(await runClient(['pub', '-u', 'phil:secret', `${s.url}/secret-a`, 'basic']), 'secret-a');
    const prompted = await runClient(['pub', '-u', 'phil', '-m', 'prompted', `${s.url}/secret-a`], { input: 'secret\n' });
    assert.equal(prompted.stderr, `Enter Password: \r${' '.repeat(20)}\r`);
    await published(await runClient(['pub', '-k', token, `${s.url}/secret-a`, 'token']), 'secret-a');
    await published(await runClient(['pub', `${s.url}/secret-a`, 'env user'], { env: { NTFY_USER: 'phil:secret' } }), 'secret-a');
    assert.deepEqual((await polled('secret-a')).map((m) => m.message), ['basic', 'prompted', 'token', 'env user']);
  });

  it('default-token and default-user from client.yml given with --config', async () => {
    const config = join(dir, 'client.yml');
    writeFileSync(config, `default-host: ${s.url}\ndefault-token: ${token}\n`);
    await published(await runClient(['pub', '--config', config, 'secret-b', 'short name, default token']), 'secret-b');
    writeFileSync(config, `default-host: ${s.url}\ndefault-user: phil\ndefault-password: secret\n`);
    await published(await runClient(['pub', '-c', config, 'secret-b', 'default user']), 'secret-b');
    assert.deepEqual((await polled('secret-b')).map((m) => m.message), ['short name, default token', 'default user']);
  });

  it('server errors print the server\'s JSON error; bad input gets ntfy\'s messages; all exit 1', async () => {
    const denied = await runClient(['pub', `${s.url}/secret-c`, 'x']);
    assert.deepEqual([denied.code, JSON.parse(denied.stderr)], [1, { code: 40301, http: 403, error: 'forbidden', link: 'https://ntfy.sh/docs/publish/#authentication' }]);
    const wrong = await runClient(['pub', '-u', 'phil:wrong', `${s.url}/secret-c`, 'x']);
    assert.deepEqual([wrong.code, JSON.parse(wrong.stderr).code], [1, 40101]);
    const priority = await runClient(['pub', '-p', '9', `${s.url}/x`, 'x']);
    assert.deepEqual([priority.code, JSON.parse(priority.stderr).code], [1, 40007]);
    const cases: [string[], string][] = [
      [['pub'], "must specify topic, type 'tocsin publish --help' for help"],
      [['pub', 'bad topic!', 'x'], 'invalid topic name: bad topic!'],
      [['pub', '-u', 'phil:secret', '-k', token, 'x'], 'cannot set both --user and --token'],
      [['pub', '-c', join(dir, 'none.yml'), 'x'], `open ${join(dir, 'none.yml')}: no such file or directory`],
    ];
    for (const [args, message] of cases) assert.deepEqual(await runClient(args), { code: 1, stdout: '', stderr: `${message}\n` }, args.join(' '));
    const refused = await runClient(['pub', 'http://127.0.0.1:1/x', 'x']);
    assert.deepEqual([refused.code, refused.stderr], [1, 'POST "http://127.0.0.1:1/x": connect ECONNREFUSED 127.0.0.1:1\n']);
  });

  it('the message and headers go out as UTF-8', async () => {
    const m = await published(await runClient(['pub', '-t', 'Überschrift 🎉', `${s.url}/utf8`, 'Grüße']), 'utf8');
    assert.deepEqual([m.title, m.message], ['Überschrift 🎉', 'Grüße']);
  });
});
