import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import bcrypt from 'bcryptjs';
import { SqliteAuthStore } from '../../src/store/sqlite/auth-store.js';
import { startTestServer, tempDir } from '../support/server.js';

/** `tocsin user|access|token|tier` as child processes against a real auth-file, as an admin runs them. */

const bin = new URL('../../../bin/tocsin.js', import.meta.url).pathname;
let authFile: string;

interface Run {
  code: number;
  stderr: string;
  stdout: string;
}

function tocsin(args: string[], env: NodeJS.ProcessEnv = {}, input?: string): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [bin, ...args], { env: { ...process.env, NTFY_PASSWORD: '', TOCSIN_PASSWORD: '', ...env } }, (err, stdout, stderr) =>
      resolve({ code: err ? Number(err.code) : 0, stdout, stderr }),
    );
    child.stdin?.end(input ?? '');
  });
}

/** Runs `tocsin <command> --auth-file F <rest>` and returns [exit code, stderr lines]. */
async function admin(command: string, rest: string[], env: NodeJS.ProcessEnv = {}, input?: string): Promise<[number, string[]]> {
  const run = await tocsin([command, '--auth-file', authFile, ...rest], env, input);
  return [run.code, run.stderr.trimEnd().split('\n')];
}

async function inStore<T>(read: (store: SqliteAuthStore) => Promise<T>): Promise<T> {
  const store = new SqliteAuthStore(authFile);
  try {
    return await read(store);
  } finally {
    await store.close();
  }
}

// A top-level directory: tempDir() called from a hook would be removed when the hook ends.
const dir = mkdtempSync(join(tmpdir(), 'tocsin-cli-'));
before(async () => {
  authFile = join(dir, 'auth.db');
  await new SqliteAuthStore(authFile).close(); // as the server leaves it after its first start
});
after(() => rmSync(dir, { recursive: true, force: true }));

describe('tocsin user', () => {
  it('adds users with the password from the environment or typed twice', async () => {
    assert.deepEqual(await admin('user', ['add', '--role=admin', 'phil'], { NTFY_PASSWORD: 'secret' }), [0, ['user phil added with role admin']]);
    assert.deepEqual(await admin('user', ['add', 'ben'], {}, 'typed\ntyped\n'), [0, [`password: \r${' '.repeat(25)}\rconfirm: \r${' '.repeat(25)}\ruser ben added with role user`]]);
    assert.ok(await inStore(async (s) => bcrypt.compareSync('typed', (await s.user('ben'))!.hash)));
    assert.equal((await inStore((s) => s.user('phil')))?.role, 'admin');
  });

  it('refuses bad input with ntfy\'s messages and exit code 1', async () => {
    const cases: [string[], string][] = [
      [['add', 'phil'], 'user phil already exists'],
      [['add', '--role=king', 'carl'], "role must be either 'user' or 'admin'"],
      [['add', 'everyone'], 'username not allowed'],
      [['add', 'bad name'], 'username not allowed'],
      [['add'], "username expected, type 'tocsin user add --help' for help"],
      [['del', 'nobody'], 'user nobody does not exist'],
      [['change-role', 'ben', 'root'], "role must be either 'user' or 'admin'"],
      [['change-tier', 'ben', 'gold'], 'tier gold does not exist'],
      [['change-tier', 'ben', 'bad code!'], 'invalid tier, must be tier code, or - to reset'],
    ];
    for (const [args, message] of cases) assert.deepEqual(await admin('user', args, { NTFY_PASSWORD: 'x' }), [1, [message]], args.join(' '));
    assert.deepEqual(await admin('user', ['add', 'carl'], {}, 'one\ntwo\n'), [1, [`password: \r${' '.repeat(25)}\rconfirm: \r${' '.repeat(25)}\rpasswords do not match: try it again, but this time type slooowwwlly`]]);
    assert.deepEqual(await admin('user', ['add', '--ignore-exists', 'phil']), [0, ['user phil already exists (exited successfully)']]);
  });

  it('closes the auth-file when a command fails', async () => {
    // given a command that fails after opening the store
    assert.deepEqual(await admin('user', ['add', 'phil'], { NTFY_PASSWORD: 'x' }), [1, ['user phil already exists']]);
    // then SQLite removed its -wal and -shm files, which it does only when the last connection closes
    assert.deepEqual(readdirSync(dir), ['auth.db']);
  });

  it('changes passwords, roles and tiers, lists users and removes them', async () => {
    assert.deepEqual(await admin('user', ['change-pass', 'ben'], { TOCSIN_PASSWORD: 'new' }), [0, ['changed password for user ben']]);
    assert.ok(await inStore(async (s) => bcrypt.compareSync('new', (await s.user('ben'))!.hash)));
    assert.deepEqual(await admin('user', ['add', 'dora'], { NTFY_PASSWORD: 'pw' }), [0, ['user dora added with role user']]);
    assert.deepEqual(await admin('user', ['change-role', 'dora', 'admin']), [0, ['changed role for user dora to admin']]);
    await admin('tier', ['add', '--name=Pro', 'pro']);
    assert.deepEqual(await admin('user', ['change-tier', 'ben', 'pro']), [0, ['changed tier for user ben to pro']]);
    assert.deepEqual(await admin('user', ['list']), [0, [
      'user dora (role: admin, tier: none)', '- read-write access to all topics (admin role)',
      'user phil (role: admin, tier: none)', '- read-write access to all topics (admin role)',
      'user * (role: anonymous, tier: none)', '- no topic-specific permissions', '- read-write access to all (other) topics (server config)',
      'user ben (role: user, tier: Pro)', '- no topic-specific permissions',
    ]]);
    assert.deepEqual(await admin('user', ['change-tier', 'ben', '-']), [0, ['removed tier from user ben']]);
    assert.deepEqual(await admin('user', ['remove', 'dora']), [0, ['user dora removed']]);
    assert.equal(await inStore((s) => s.user('dora')), undefined);
  });

  it('reads the auth-file from a server.yml given with --config after the command word', async () => {
    const yml = join(tempDir(), 'server.yml');
    writeFileSync(yml, `auth-file: ${authFile}\nauth-default-access: deny-all\n`);
    const run = await tocsin(['user', '--config', yml, 'add', '--role=user', 'erin'], { NTFY_PASSWORD: 'pw' });
    assert.deepEqual([run.code, run.stderr], [0, 'user erin added with role user\n']);
    const list = await tocsin(['access', '-c', yml, 'everyone']);
    assert.equal(list.stderr, 'user * (role: anonymous, tier: none)\n- no topic-specific permissions\n- no access to any (other) topics (server config)\n');
  });

  it('hash prints a bcrypt hash for auth-users, without an auth-file', async () => {
    const run = await tocsin(['user', 'hash'], { NTFY_PASSWORD: 'pw' });
    assert.equal(run.code, 0);
    assert.match(run.stdout, /^\$2[aby]\$10\$[./A-Za-z0-9]{53}\n$/);
    assert.ok(bcrypt.compareSync('pw', run.stdout.trim()));
  });

  it('needs an auth-file that exists', async () => {
    assert.deepEqual([(await tocsin(['user', 'list'])).stderr], ['option auth-file not set; auth is unconfigured for this server\n']);
    const missing = await tocsin(['user', '--auth-file', join(tempDir(), 'none.db'), 'list']);
    assert.deepEqual([missing.code, missing.stderr], [1, 'auth-file does not exist; please start the server at least once to create it\n']);
    // Bad arguments are reported first, as ntfy does.
    const badRole = await tocsin(['user', 'add', '--role=king', 'carl']);
    assert.deepEqual([badRole.code, badRole.stderr], [1, "role must be either 'user' or 'admin'\n"]);
  });

  it('a database-url no backend handles stops the command instead of using the auth-file', async () => {
    const yml = join(tempDir(), 'server.yml');
    writeFileSync(yml, `auth-file: ${authFile}\ndatabase-url: redis://db.example/tocsin\n`);
    const run = await tocsin(['user', 'list', '--config', yml]);
    assert.deepEqual(
      [run.code, run.stderr],
      [1, 'database-url: unsupported scheme "redis:" (use mongodb://, mongodb+srv://, postgres:// or postgresql://, or leave it unset to keep the stores in cache-file, auth-file and attachment-cache-dir)\n'],
    );
  });
});

describe('tocsin access', () => {
  it('grants, shows and resets access; everyone is the anonymous user', async () => {
    assert.deepEqual(await admin('access', ['ben', 'alerts*', 'ro']), [0, ['granted read-only access to topic alerts*', '', 'user ben (role: user, tier: none)', '- read-only access to topic alerts*']]);
    assert.deepEqual((await admin('access', ['ben', 'alerts-db', 'rw']))[1][0], 'granted read-write access to topic alerts-db');
    assert.deepEqual(await admin('access', ['everyone', 'announcements', 'read-only']), [0, [
      'granted read-only access to topic announcements', '', 'user * (role: anonymous, tier: none)',
      '- read-only access to topic announcements', '- read-write access to all (other) topics (server config)',
    ]]);
    assert.deepEqual(await admin('access', ['ben']), [0, ['user ben (role: user, tier: none)', '- read-write access to topic alerts-db', '- read-only access to topic alerts*']]);
    assert.deepEqual(await inStore((s) => s.permission('ben', 'alerts-web')), { read: true, write: false });
    assert.deepEqual(await admin('access', ['--reset', 'ben', 'alerts-db']), [0, ['reset access for user ben and topic alerts-db', '', 'user ben (role: user, tier: none)', '- read-only access to topic alerts*']]);
    assert.deepEqual((await admin('access', ['--reset', 'ben']))[1][0], 'reset access for user ben');
    assert.deepEqual(await admin('access', ['--reset']), [0, ['reset access for all users']]);
    assert.deepEqual(await inStore((s) => s.grants('*')), []);
  });

  it('refuses bad input', async () => {
    const cases: [string[], string][] = [
      [['ben', 'alerts', 'everything'], 'permission must be one of: read-write, read-only, write-only, or deny (or the aliases: read, ro, write, wo, none)'],
      [['ghost', 'alerts', 'rw'], 'user ghost does not exist'],
      [['ghost'], 'user ghost does not exist'],
      [['--reset', 'ghost'], 'user ghost does not exist'],
      [['phil', 'alerts', 'rw'], 'user phil is an admin user, access control entries have no effect'],
      [['ben', 'bad topic!', 'rw'], 'invalid topic or topic pattern bad topic!: letters, digits, - and _ and * only, up to 64'],
      [['ben', 'alerts'], "invalid syntax, please check 'tocsin access --help' for usage details"],
      [['--reset', 'ben', 'alerts', 'rw'], "too many arguments, please check 'tocsin access --help' for usage details"],
    ];
    for (const [args, message] of cases) assert.deepEqual(await admin('access', args), [1, [message]], args.join(' '));
  });

  it('--group authenticated grants, shows and resets the entries of every logged-in user', async () => {
    const shown = (line: string): string[] => ['user *authenticated (role: group, tier: none)', line];
    assert.deepEqual(await admin('access', ['--group', 'authenticated', 'team*', 'rw']), [0, ['granted read-write access to topic team*', '', ...shown('- read-write access to topic team*')]]);
    assert.deepEqual(await inStore((s) => s.permission('ben', 'team-a')), { read: true, write: true });
    assert.equal(await inStore((s) => s.permission('*', 'team-a')), undefined);
    assert.deepEqual(await admin('access', ['-g', '*authenticated']), [0, shown('- read-write access to topic team*')]);
    const all = (await admin('access', []))[1].join('\n');
    assert.ok(all.includes(shown('- read-write access to topic team*').join('\n')), `listed with all users: ${all}`);
    assert.deepEqual(await admin('access', ['--reset', '--group', 'authenticated', 'team*']), [0, ['reset access for user *authenticated and topic team*', '', ...shown('- no topic-specific permissions')]]);
    const cases: [string[], string][] = [
      [['--group', 'nogroup', 'team', 'rw'], 'group nogroup does not exist'],
      [['--group', 'nogroup'], 'group nogroup does not exist'],
      [['--group', 'bad/name', 'team', 'rw'], 'invalid group name "bad/name": letters, digits, - _ and . only, up to 64'],
      [['--group', 'authenticated', 'team', 'rw', 'extra'], "too many arguments, please check 'tocsin access --help' for usage details"],
    ];
    for (const [args, message] of cases) assert.deepEqual(await admin('access', args), [1, [message]], args.join(' '));
  });

  it('--group NAME grants a named group\'s entries, which its members get', async () => {
    assert.deepEqual(await admin('group', ['add', 'deployers']), [0, ['group deployers added']]);
    assert.deepEqual(await admin('group', ['member', 'deployers', 'add', 'ben']), [0, ['user ben added to group deployers']]);
    const shown = ['user *deployers (role: group, tier: none)', '- write-only access to topic deploys'];
    assert.deepEqual(await admin('access', ['--group', 'deployers', 'deploys', 'wo']), [0, ['granted write-only access to topic deploys', '', ...shown]]);
    assert.deepEqual(await inStore((s) => s.permission('ben', 'deploys')), { read: false, write: true });
    assert.deepEqual(await admin('access', ['-g', 'deployers']), [0, shown]);
    assert.ok((await admin('access', []))[1].join('\n').includes(shown.join('\n')), 'listed with all users');
    assert.deepEqual(await admin('group', ['remove', 'deployers']), [0, ['group deployers removed']]);
    assert.equal(await inStore((s) => s.permission('ben', 'deploys')), undefined);
  });
});

describe('tocsin group', () => {
  it('adds, lists and removes groups and members', async () => {
    assert.deepEqual(await admin('group', ['list']), [0, ['no groups']]);
    assert.deepEqual(await admin('group', ['add', 'ops']), [0, ['group ops added']]);
    assert.deepEqual(await admin('group', ['add', 'dev.team']), [0, ['group dev.team added']]);
    assert.deepEqual(await admin('group', ['member', 'ops', 'add', 'ben']), [0, ['user ben added to group ops']]);
    assert.deepEqual(await admin('group', ['list']), [0, ['group dev.team', '- no members', 'group ops', '- member ben']]);
    assert.deepEqual(await admin('group', ['member', 'ops', 'remove', 'ben']), [0, ['user ben removed from group ops']]);
    assert.deepEqual(await admin('group', ['remove', 'dev.team']), [0, ['group dev.team removed']]);
    assert.deepEqual(await admin('group', ['remove', 'ops']), [0, ['group ops removed']]);
  });

  it('refuses bad input', async () => {
    await admin('group', ['add', 'ops']);
    const cases: [string[], string][] = [
      [['add', 'ops'], 'group ops already exists'],
      [['add', 'authenticated'], 'group name authenticated is reserved for the built-in group of every logged-in user'],
      [['add', '*ops'], 'invalid group name "*ops": letters, digits, - _ and . only, up to 64'],
      [['add', 'x'.repeat(65)], `invalid group name "${'x'.repeat(65)}": letters, digits, - _ and . only, up to 64`],
      [['add', ''], 'invalid group name "": letters, digits, - _ and . only, up to 64'],
      [['remove', 'nogroup'], 'group nogroup does not exist'],
      [['member', 'ops', 'add', 'ghost'], 'user ghost does not exist'],
      [['member', 'nogroup', 'add', 'ben'], 'group nogroup does not exist'],
      [['member', 'ops', 'remove', 'ben'], 'user ben is not a member of group ops'],
      [['member', 'ops', 'join', 'ben'], "unknown action join: 'add' or 'remove'"],
    ];
    for (const [args, message] of cases) assert.deepEqual(await admin('group', args), [1, [message]], args.join(' '));
    await admin('group', ['remove', 'ops']);
  });
});

describe('tocsin token', () => {
  it('adds, lists and removes tokens', async () => {
    const [code, [line]] = await admin('token', ['add', '--label=CI', '--expires=30d', 'ben']);
    assert.equal(code, 0);
    const match = /^token (tk_[a-z0-9]{29}) created for user ben, expires \w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d UTC \d{4}$/.exec(line as string);
    assert.ok(match, line);
    const token = match[1] as string;
    const stored = await inStore((s) => s.tokens('ben'));
    assert.deepEqual(stored.map((t) => [t.token, t.label]), [[token, 'CI']]);
    assert.ok(Math.abs(stored[0]!.expires - (Date.now() / 1000 + 30 * 86400)) < 10, 'expires in 30 days');
    const [, list] = await admin('token', ['list', 'ben']);
    assert.equal(list[0], 'user ben');
    assert.match(list[1] as string, new RegExp(`^- ${token} \\(CI\\), expires \\d\\d \\w{3} \\d\\d \\d\\d:\\d\\d UTC, accessed from 0\\.0\\.0\\.0 at \\d\\d \\w{3} \\d\\d \\d\\d:\\d\\d UTC$`));
    assert.match((await admin('token', ['add', 'phil']))[1][0] as string, /^token tk_[a-z0-9]{29} created for user phil, never expires$/);
    assert.deepEqual(await admin('token', ['remove', 'ben', token]), [0, [`token ${token} for user ben removed`]]);
    assert.deepEqual(await admin('token', ['list', 'ben']), [0, ['user ben has no access tokens']]);
  });

  it('refuses bad input', async () => {
    const cases: [string[], string][] = [
      [['add'], "username expected, type 'tocsin token add --help' for help"],
      [['add', 'ghost'], 'user ghost does not exist'],
      [['add', 'everyone'], 'username not allowed'],
      [['add', '--expires=whenever', 'ben'], 'invalid expiry "whenever": use a duration (30d, 12h), a date or a Unix time'],
      [['add', '--expires=2020-01-01', 'ben'], 'invalid expiry "2020-01-01": use a duration (30d, 12h), a date or a Unix time'],
      [['remove', 'ben'], "username and token expected, type 'tocsin token remove --help' for help"],
      [['remove', 'ben', 'tk_nonononononononononononononon'], 'token tk_nonononononononononononononon for user ben does not exist'],
      [['add', '--scope=deploys', 'ben'], 'invalid scope "deploys": use TOPIC:PERMISSION, e.g. deploys:write-only (invalid request: incorrect permission string)'],
      [['add', '--scope=dep/loys:rw', 'ben'], 'invalid scope "dep/loys:rw": use TOPIC:PERMISSION, e.g. deploys:write-only (invalid request: topic invalid)'],
      [['add', ...Array.from({ length: 17 }, (_, i) => `--scope=t${i}:rw`), 'ben'], 'at most 16 scopes per token'],
    ];
    for (const [args, message] of cases) assert.deepEqual(await admin('token', args), [1, [message]], args.join(' '));
  });

  it('adds a topic-scoped token with --scope, listed with its scopes', async () => {
    const [code, [line]] = await admin('token', ['add', '--scope', 'deploys:wo', '-s', 'logs-*:ro', 'ben']);
    assert.equal(code, 0);
    const token = /^token (tk_[a-z0-9]{29}) created for user ben, never expires, limited to deploys \(write-only\), logs-\* \(read-only\)$/.exec(line as string)?.[1];
    assert.ok(token, line);
    assert.deepEqual((await inStore((s) => s.userByToken(token)))?.scopes, [
      { topic: 'deploys', permission: { read: false, write: true } },
      { topic: 'logs-*', permission: { read: true, write: false } },
    ]);
    const [, list] = await admin('token', ['list', 'ben']);
    assert.match(list.find((l) => l.includes(token)) as string, /, limited to deploys \(write-only\), logs-\* \(read-only\)$/);
    await admin('token', ['remove', 'ben', token]);
  });
});

describe('tocsin tier', () => {
  it('adds with ntfy\'s defaults, changes only the flags given, lists and removes', async () => {
    assert.deepEqual(await admin('tier', ['add', '--message-limit=100', '--attachment-file-size-limit=2M', 'basic']), [0, [
      'tier added', '', 'tier basic', '- Name: basic', '- Message limit: 100', '- Message expiry duration: 12h0m0s (43200 seconds)',
      '- Email limit: 20', '- Phone call limit: 0', '- Reservation limit: 3', '- Attachment file size limit: 2.0 MB',
      '- Attachment total size limit: 100.0 MB', '- Attachment expiry duration: 6h0m0s (21600 seconds)', '- Attachment daily bandwidth limit: 1.0 GB',
    ]]);
    const [code, changed] = await admin('tier', ['ch', '--name=Basic', '--reservation-limit=5', '--message-expiry-duration=1d', 'basic']);
    assert.equal(code, 0);
    assert.deepEqual(changed.slice(0, 4), ['tier updated', '', 'tier basic', '- Name: Basic']);
    assert.ok(changed.includes('- Message expiry duration: 24h0m0s (86400 seconds)'));
    assert.ok(changed.includes('- Reservation limit: 5'));
    assert.ok(changed.includes('- Message limit: 100'), 'kept');
    assert.deepEqual((await admin('tier', ['list']))[1].filter((l) => l.startsWith('tier ')), ['tier basic', 'tier pro']);
    assert.deepEqual(await admin('tier', ['remove', 'basic']), [0, ['tier basic removed']]);
  });

  it('refuses bad input', async () => {
    await admin('user', ['change-tier', 'ben', 'pro']);
    const cases: [string[], string][] = [
      [['add', 'pro'], 'tier pro already exists'],
      [['add', 'bad code!'], 'tier code must consist only of numbers and letters'],
      [['add', '--message-limit=lots', 'gold'], 'invalid value for --message-limit: "lots"'],
      [['change', 'gold'], 'tier gold does not exist'],
      [['remove', 'gold'], 'tier gold does not exist'],
      [['remove', 'pro'], 'tier pro is in use by 1 user(s)'],
    ];
    for (const [args, message] of cases) assert.deepEqual(await admin('tier', args), [1, [message]], args.join(' '));
  });
});


describe('a running server and the CLI', () => {
  it('sees password changes, new grants and removed tokens from the CLI at once', async () => {
    const file = join(tempDir(), 'auth.db');
    const server = await startTestServer({ 'auth-file': file, 'auth-default-access': 'deny-all' });
    after(() => server.server.close());
    const cli = async (command: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<number> => (await tocsin([command, '--auth-file', file, ...args], env)).code;
    const publish = async (authorization: string): Promise<number> =>
      (await fetch(`${server.url}/ops`, { method: 'POST', body: 'x', headers: { Authorization: authorization } })).status;
    const basic = (password: string): string => `Basic ${Buffer.from(`ops:${password}`).toString('base64')}`;
    assert.equal(await cli('user', ['add', 'ops'], { NTFY_PASSWORD: 'one' }), 0);
    assert.equal(await publish(basic('one')), 403, 'no grant yet');
    assert.equal(await cli('access', ['ops', 'ops', 'wo']), 0);
    assert.equal(await publish(basic('one')), 200, 'verified with bcrypt, then remembered');
    assert.equal(await cli('user', ['change-pass', 'ops'], { NTFY_PASSWORD: 'two' }), 0);
    assert.equal(await publish(basic('one')), 401, 'the remembered check went with the old hash');
    assert.equal(await publish(basic('two')), 200);
    const token = /tk_[a-z0-9]{29}/.exec((await tocsin(['token', '--auth-file', file, 'add', 'ops'])).stderr)?.[0] as string;
    assert.equal(await publish(`Bearer ${token}`), 200);
    assert.equal(await cli('token', ['remove', 'ops', token]), 0);
    assert.equal(await publish(`Bearer ${token}`), 401);
  });

  it('leaves users provisioned from server.yml to server.yml', async () => {
    const file = join(tempDir(), 'auth.db');
    const server = await startTestServer({ 'auth-file': file, 'auth-users': [`ops:${bcrypt.hashSync('pw', 4)}:user`] });
    after(() => server.server.close());
    for (const args of [['change-pass', 'ops'], ['remove', 'ops'], ['change-role', 'ops', 'admin']]) {
      const run = await tocsin(['user', '--auth-file', file, ...args], { NTFY_PASSWORD: 'x' });
      assert.deepEqual([run.code, run.stderr], [1, 'cannot change or delete provisioned user\n'], args.join(' '));
    }
  });
});

describe('tocsin user reset-pass (ntfy 2.25)', () => {
  it('prints a link that sets a new password through the running server, once; no SMTP needed; provisioned users refused', async () => {
    const dir = tempDir();
    const file = join(dir, 'auth.db');
    const config = join(dir, 'server.yml');
    writeFileSync(config, `auth-file: ${file}\nbase-url: https://ntfy.example.com\n`);
    const server = await startTestServer({ 'auth-file': file, 'auth-users': [`ops:${bcrypt.hashSync('pw', 4)}:user`] });
    after(() => server.server.close());
    assert.equal((await tocsin(['user', '--auth-file', file, 'add', 'ben'], { NTFY_PASSWORD: 'old' })).code, 0);
    const run = await tocsin(['user', '--config', config, 'reset-pass', 'ben']);
    assert.deepEqual([run.code, run.stderr], [0, 'password reset link for user ben created, valid for 1 hour\n']);
    const token = /^https:\/\/ntfy\.example\.com\/account\/password\/reset\/([-_A-Za-z0-9]{44})\n$/.exec(run.stdout)?.[1];
    assert.ok(token, run.stdout);
    const reset = (): Promise<Response> => fetch(`${server.url}/v1/account/password/reset`, { method: 'POST', body: JSON.stringify({ token, password: 'new' }) });
    assert.equal((await reset()).status, 200);
    assert.equal((await reset()).status, 400, 'used up');
    const basic = `Basic ${Buffer.from('ben:new').toString('base64')}`;
    assert.equal((await fetch(`${server.url}/v1/account`, { headers: { Authorization: basic } })).status, 200);
    const bare = await tocsin(['user', '--auth-file', file, 'reset-pass', 'ben']);
    assert.match(bare.stdout, /^[-_A-Za-z0-9]{44}\n$/, 'without base-url, the token alone');
    const provisioned = await tocsin(['user', '--auth-file', file, 'reset-pass', 'ops']);
    assert.deepEqual([provisioned.code, provisioned.stderr], [1, 'cannot change or delete provisioned user\n']);
    assert.deepEqual((await tocsin(['user', '--auth-file', file, 'reset-pass', 'nobody'])).code, 1);
  });
});
