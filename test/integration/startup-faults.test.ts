import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { serveUntilExit, startTestServer, tempDir } from '../support/server.js';

const dir = tempDir();

/** A real SQLite file of several pages, cut in half as a crash mid-copy would leave it. */
function truncatedDatabase(file: string): void {
  const db = new Database(file);
  db.exec('CREATE TABLE filler (body TEXT)');
  const insert = db.prepare('INSERT INTO filler VALUES (?)');
  for (let i = 0; i < 500; i++) insert.run('x'.repeat(200));
  db.close();
  truncateSync(file, Math.floor(statSync(file).size / 2));
}

/** Asserts `tocsin serve` stopped with exit 1 and exactly one stderr line, `expected`. */
async function assertStops(args: string[], expected: string): Promise<void> {
  const { code, stderr } = await serveUntilExit(args);
  assert.equal(code, 1);
  assert.equal(stderr, `tocsin: ${expected}\n`);
}

describe('startup — cache-file faults', () => {
  it('a file of random bytes stops the start, naming the file', async () => {
    const file = join(dir, 'random.db');
    writeFileSync(file, randomBytes(8192));
    await assertStops(['--cache-file', file], `cache file ${file} is not a SQLite database (corrupt, or some other kind of file)`);
  });

  it('a truncated SQLite file stops the start as corrupt', async () => {
    const file = join(dir, 'truncated.db');
    truncatedDatabase(file);
    await assertStops(['--cache-file', file], `cache file ${file} is corrupt (database disk image is malformed)`);
  });

  it('a directory in the file’s place stops the start', async () => {
    const file = join(dir, 'a-directory.db');
    mkdirSync(file);
    await assertStops(['--cache-file', file], `cache file ${file} cannot be opened (is it a directory, or not readable and writable?)`);
  });

  it('a parent that is a regular file stops the start', async () => {
    const parent = join(dir, 'plain-file');
    writeFileSync(parent, 'not a directory');
    const file = join(parent, 'sub', 'cache.db');
    await assertStops(['--cache-file', file], `cache file ${file} cannot be created: a parent on its path is not a directory`);
  });
});

describe('startup — auth-file faults', () => {
  it('a file of random bytes stops the start, naming the file', async () => {
    const file = join(dir, 'random-auth.db');
    writeFileSync(file, randomBytes(8192));
    await assertStops(['--auth-file', file], `auth-file ${file} is not a SQLite database (corrupt, or some other kind of file)`);
  });

  it('a truncated SQLite file stops the start as corrupt', async () => {
    const file = join(dir, 'truncated-auth.db');
    truncatedDatabase(file);
    await assertStops(['--auth-file', file], `auth-file ${file} is corrupt (database disk image is malformed)`);
  });

  it('a directory in the file’s place stops the start', async () => {
    const file = join(dir, 'auth-directory.db');
    mkdirSync(file);
    await assertStops(['--auth-file', file], `auth-file ${file} cannot be opened (is it a directory, or not readable and writable?)`);
  });
});

describe('startup — database-url', () => {
  const hint = '(use mongodb://, mongodb+srv://, postgres:// or postgresql://, or leave it unset to keep the stores in cache-file, auth-file and attachment-cache-dir)';

  it('a scheme no backend handles stops the start before any store file is made', async () => {
    const file = join(dir, 'never-made.db');
    await assertStops(['--database-url', 'redis://db.example/tocsin', '--cache-file', file], `database-url: unsupported scheme "redis:" ${hint}`);
    assert.equal(existsSync(file), false);
  });

  it('a value without a scheme stops the start', async () => {
    await assertStops(['--database-url', 'tocsin.db'], `database-url: "tocsin.db" is not a URL ${hint}`);
  });
});

describe('startup — phone calls', () => {
  it('twilio-account without the rest stops the start, naming what is missing', async () => {
    await assertStops(
      ['--twilio-account', 'AC0123456789abcdef0123456789abcdef', '--twilio-auth-token', 'secret', '--base-url', 'https://ntfy.example.com'],
      'if twilio-account is set, twilio-auth-token, twilio-phone-number, twilio-verify-service, base-url, and auth-file must also be set (missing: twilio-phone-number, twilio-verify-service, auth-file)',
    );
  });
});

describe('startup — listen address', () => {
  it('a port another server listens on stops the start, as ntfy\'s "address already in use"', async () => {
    const first = await startTestServer();
    try {
      await assertStops(['--listen-http', `127.0.0.1:${first.port}`], `cannot listen on 127.0.0.1:${first.port}: the address is in use (or not this host's)`);
      assert.equal((await fetch(`${first.url}/v1/health`)).status, 200, 'the first server goes on');
    } finally {
      await first.server.close();
    }
  });
});
