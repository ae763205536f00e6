import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Command } from 'commander';
import fc from 'fast-check';
import { ClientError } from '../../../src/cli/client/client-error.js';
import { publishFlags, subscribeFlags } from '../../../src/cli/client/client-flags.js';
import { addFlags, parseGoBool, readFlags, type FlagSpec } from '../../../src/cli/client/flag-table.js';
import { parsePublishArgs } from '../../../src/cli/client/publish-input.js';
import { publishRequest } from '../../../src/cli/client/publish-request.js';
import { topicUrl } from '../../../src/cli/client/topic-url.js';
import { quoteCommand } from '../../../src/cli/client/wait.js';

/** What `tocsin publish <argv>` reads from its flags, parsed by commander as the command does. */
function parse(specs: readonly FlagSpec[], argv: string[], env: NodeJS.ProcessEnv = {}): { values: ReturnType<typeof readFlags>; args: string[] } {
  const program = new Command().enablePositionalOptions().exitOverride();
  let result: { values: ReturnType<typeof readFlags>; args: string[] } | undefined;
  const command = program.command('publish').argument('[args...]').passThroughOptions();
  addFlags(command, specs).action((args: string[], options: Record<string, unknown>) => {
    result = { values: readFlags(options, specs, env), args };
  });
  program.parse(['publish', ...argv], { from: 'user' });
  return result as { values: ReturnType<typeof readFlags>; args: string[] };
}

describe('client flags — publish', () => {
  it('reads names, one-letter aliases and ntfy\'s long aliases alike', () => {
    const long = parse(publishFlags, ['--title', 'T', '--tag', 'a,b', '--at', '8:30am', '--name', 'x.txt', '--mail', 'p@e.com', '--md', '--no_cache', '--pid', '42', 'topic', 'hi']);
    assert.deepEqual(long.values, { title: 'T', tags: 'a,b', delay: '8:30am', filename: 'x.txt', email: 'p@e.com', markdown: true, 'no-cache': true, 'wait-pid': 42 });
    const short = parse(publishFlags, ['-t', 'T', '-T', 'a', '-D', '10s', '-n', 'y', '-e', 'm@e.com', '-C', '-F', '-q', '-U', 'https://c', 'topic']);
    assert.deepEqual(short.values, { title: 'T', tags: 'a', delay: '10s', filename: 'y', email: 'm@e.com', 'no-cache': true, 'no-firebase': true, quiet: true, click: 'https://c' });
    assert.deepEqual(parse(publishFlags, ['--in', '5m', '--done', 'topic']).values, { delay: '5m', 'wait-cmd': true });
  });

  it('ends flags at the first argument, as Go\'s flag package: the rest is message or command', () => {
    const run = parse(publishFlags, ['--wait-cmd', 'backups', 'rsync', '-av', '--delete', './', '/tmp/a']);
    assert.deepEqual(run.args, ['backups', 'rsync', '-av', '--delete', './', '/tmp/a']);
    assert.deepEqual(run.values, { 'wait-cmd': true });
    assert.deepEqual(parse(publishFlags, ['topic', '-p', 'high']).args, ['topic', '-p', 'high']);
  });

  it('takes NTFY_* variables for flags not given, with Go\'s rules for booleans and integers', () => {
    const env = { NTFY_TITLE: 'from env', NTFY_PRIORITY: '5', NTFY_QUIET: 'true', NTFY_NO_CACHE: '0', NTFY_WAIT_PID: '77', NTFY_MARKDOWN: 'T' };
    assert.deepEqual(parse(publishFlags, ['-t', 'from flag', 'topic'], env).values, { title: 'from flag', priority: '5', quiet: true, 'no-cache': false, 'wait-pid': 77, markdown: true });
    assert.throws(() => parse(publishFlags, ['topic'], { NTFY_QUIET: 'yes' }), new ClientError('could not parse "yes" as bool value from env var "NTFY_QUIET" for flag quiet'));
    assert.throws(() => parse(publishFlags, ['topic'], { NTFY_WAIT_PID: 'abc' }), new ClientError('could not parse "abc" as int value from env var "NTFY_WAIT_PID" for flag wait-pid'));
    assert.throws(() => parse(publishFlags, ['--wait-pid', '1.5', 'topic']), new ClientError('could not parse "1.5" as int value from flag --wait-pid'));
  });

  it('Go booleans: exactly strconv.ParseBool\'s twelve spellings are accepted', () => {
    const spellings = ['1', 't', 'T', 'TRUE', 'true', 'True', '0', 'f', 'F', 'FALSE', 'false', 'False'];
    fc.assert(
      fc.property(fc.string({ maxLength: 6 }), (s) => {
        if (spellings.includes(s)) assert.equal(parseGoBool(s, 'x'), spellings.indexOf(s) < 6);
        else assert.throws(() => parseGoBool(s, 'x'), ClientError);
      }),
    );
  });

  it('subscribe: since, poll, scheduled and from-config by name or alias', () => {
    assert.deepEqual(parse(subscribeFlags, ['-s', 'all', '-p', '-S', '-C', 't']).values, { since: 'all', poll: true, scheduled: true, 'from-config': true });
    assert.deepEqual(parse(subscribeFlags, ['--sched', '--from_config', 't'], { NTFY_TOKEN: 'tk_x' }).values, { scheduled: true, 'from-config': true, token: 'tk_x' });
  });
});

describe('client flags — topic, message and command', () => {
  it('takes the topic from the first argument, or all arguments as message under NTFY_TOPIC', () => {
    assert.deepEqual(parsePublishArgs(['alerts', 'disk', 'full'], { waitCmd: false }, undefined), { topic: 'alerts', message: 'disk full', command: [] });
    assert.deepEqual(parsePublishArgs(['disk', 'full'], { waitCmd: false }, 'alerts'), { topic: 'alerts', message: 'disk full', command: [] });
    assert.deepEqual(parsePublishArgs(['alerts', 'ignored'], { waitCmd: false, message: 'from -m' }, undefined), { topic: 'alerts', message: 'from -m', command: [] });
    assert.deepEqual(parsePublishArgs(['alerts', 'make', '-j4'], { waitCmd: true }, undefined), { topic: 'alerts', message: '', command: ['make', '-j4'] });
  });

  it('refuses a missing topic or command with ntfy\'s messages', () => {
    assert.throws(() => parsePublishArgs([], { waitCmd: false }, undefined), new ClientError("must specify topic, type 'tocsin publish --help' for help"));
    assert.throws(() => parsePublishArgs(['t'], { waitCmd: true }, undefined), new ClientError("must specify command when --wait-cmd is passed, type 'tocsin publish --help' for help"));
  });

  it('expands topics as ntfy: URLs as is, host/topic over https, names under default-host', () => {
    assert.equal(topicUrl('mytopic', 'https://ntfy.example.com'), 'https://ntfy.example.com/mytopic');
    assert.equal(topicUrl('a,b', 'http://127.0.0.1:8080/'), 'http://127.0.0.1:8080/a,b');
    assert.equal(topicUrl('home.lan/backups', 'https://ntfy.sh'), 'https://home.lan/backups');
    assert.equal(topicUrl('http://h:1/t', 'https://ntfy.sh'), 'http://h:1/t');
    assert.throws(() => topicUrl('bad topic!', 'https://ntfy.sh'), new ClientError('invalid topic name: bad topic!'));
  });

  it('topic names: a valid name always lands under the host, any other string without / or scheme is refused', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 70 }), (name) => {
        fc.pre(!name.includes('/'));
        const valid = /^[-_A-Za-z0-9]{1,64}(,[-_A-Za-z0-9]{1,64})*$/.test(name);
        if (valid) assert.equal(topicUrl(name, 'https://h'), `https://h/${name}`);
        else assert.throws(() => topicUrl(name, 'https://h'), new ClientError(`invalid topic name: ${name}`));
      }),
    );
  });

  it('quotes a command as ntfy\'s util.QuoteCommand', () => {
    assert.equal(quoteCommand(['rsync', '-av', './', 'root@example.com:/backups/']), 'rsync -av ./ root@example.com:/backups/');
    assert.equal(quoteCommand(['sh', '-c', 'exit 3']), 'sh -c "exit 3"');
    fc.assert(fc.property(fc.array(fc.stringMatching(/^[-_./:@a-zA-Z0-9]+$/), { minLength: 1 }), (args) => assert.equal(quoteCommand(args), args.join(' '))));
  });
});

describe('client flags — the publish request', () => {
  it('sends each flag as ntfy\'s header, the message as the body', () => {
    const flags = { title: 'T', priority: 'high', tags: 'a,b', delay: '10s', click: 'https://c', icon: 'https://i', attach: 'https://a/f.pdf', email: 'p@e.com', call: 'yes', 'sequence-id': 'job-7', actions: 'view, Open,\nhttps://x', markdown: true, 'no-cache': true, 'no-firebase': true };
    assert.deepEqual(publishRequest('http://h/t', flags, 'hi', 'Bearer tk_1'), {
      method: 'POST',
      url: 'http://h/t',
      message: 'hi',
      headers: {
        'X-Title': 'T', 'X-Priority': 'high', 'X-Tags': 'a,b', 'X-Delay': '10s', 'X-Click': 'https://c', 'X-Icon': 'https://i', 'X-Attach': 'https://a/f.pdf',
        'X-Email': 'p@e.com', 'X-Call': 'yes', 'X-Sequence-ID': 'job-7', 'X-Actions': 'view, Open, https://x', 'X-Markdown': 'yes', 'X-Cache': 'no', 'X-Firebase': 'no',
        Authorization: 'Bearer tk_1',
      },
    });
  });

  it('uploads a file with PUT: the message moves to X-Message, the name to X-Filename', () => {
    assert.deepEqual(publishRequest('http://h/t', { file: '/tmp/dir/report.pdf' }, 'see this', undefined), {
      method: 'PUT', url: 'http://h/t', file: '/tmp/dir/report.pdf', message: 'see this', headers: { 'X-Message': 'see this', 'X-Filename': 'report.pdf' },
    });
    assert.deepEqual(publishRequest('http://h/t', { file: '-' }, '', undefined).headers, { 'X-Filename': 'stdin' });
    assert.deepEqual(publishRequest('http://h/t', { file: '-', filename: 'a.jpg' }, '', undefined).headers, { 'X-Filename': 'a.jpg' });
  });
});
