import { createServer } from 'node:net';
import { join } from 'node:path';
import bcrypt from 'bcryptjs';
import type { Logger } from 'pino';
import type { RawValues } from '../../src/config/load.js';
import { startTestServer, type TestServer } from './server.js';

/** A free 127.0.0.1 port, known before the server starts (its base-url must name it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}

export const adminPassword = 'admin-pass';

/**
 * A Tocsin for the browser tests and screenshots, with everything the web app shows on:
 * accounts (sign-up, reservations, an admin `admin` / adminPassword), attachments, and
 * base-url its own address so attachment links load in the page. Its files go in `dir`
 * (a top-level tempDir(): one made inside `before` would be removed when `before` ends).
 */
export async function startWebServer(dir: string, settings: RawValues = {}, log?: Logger): Promise<TestServer> {
  const port = await freePort();
  return startTestServer({
    'listen-http': `127.0.0.1:${port}`,
    'base-url': `http://127.0.0.1:${port}`,
    'auth-file': join(dir, 'auth.db'),
    'auth-users': [`admin:${bcrypt.hashSync(adminPassword, 4)}:admin`],
    'enable-login': true,
    'enable-signup': true,
    'enable-reservations': true,
    'attachment-cache-dir': join(dir, 'files'),
    ...settings,
  }, log);
}
