import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { readdirSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as tick } from 'node:timers/promises';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { serveUntilExit, spawnServer, tempDir } from '../support/server.js';

const dir = tempDir();

/** A cache file that another connection holds under BEGIN EXCLUSIVE until `release`. */
function lockedCache(name: string, journalMode: 'delete' | 'wal'): { file: string; release: () => void } {
  const file = join(dir, name);
  const db = new Database(file);
  db.pragma(`journal_mode = ${journalMode}`);
  db.exec('BEGIN EXCLUSIVE');
  return {
    file,
    release: () => {
      db.exec('COMMIT');
      db.close();
    },
  };
}

/** Resolves once `child` holds `file` open: it has reached SQLite's lock, which is what it waits on. */
async function opened(child: ChildProcess, file: string): Promise<void> {
  const fds = `/proc/${child.pid}/fd`;
  const holds = (): boolean => readdirSync(fds).some((fd) => {
    try {
      return readlinkSync(join(fds, fd)) === file;
    } catch {
      return false; // closed between the listing and the read
    }
  });
  // /proc has no event to wait on; a 5 ms poll is bounded by the test's own timeout.
  while (!holds()) await tick(5);
}

// Each case waits out busy_timeout (5 s), so they run side by side.
describe('startup — a cache file locked by another process', { concurrency: true }, () => {
  for (const mode of ['delete', 'wal'] as const) {
    it(`held through busy_timeout (journal_mode ${mode}): the start stops, naming the file`, async () => {
      const { file, release } = lockedCache(`held-${mode}.db`, mode);
      const { code, stderr } = await serveUntilExit(['--cache-file', file]);
      release();
      assert.equal(code, 1);
      assert.equal(stderr, `tocsin: cache file ${file} is locked by another process\n`);
    });
  }

  it('released while the server waits: the server starts and serves the file', async () => {
    const { file, release } = lockedCache('released.db', 'wal');
    const server = await spawnServer(['--cache-file', file], {}, (child) => void opened(child, file).then(release, release));
    const published = await fetch(`${server.url}/after-lock`, { method: 'POST', body: 'written after the lock was released' });
    assert.equal(published.status, 200);
    server.child.kill('SIGTERM');
    assert.equal(await server.exited, 0);
  });
});
