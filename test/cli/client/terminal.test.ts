import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import bcrypt from 'bcryptjs';
import { clientEnv } from '../../support/cli-client.js';
import type { Json } from '../../support/clients.js';
import { startTestServer, tempDir, type TestServer } from '../../support/server.js';

/** `tocsin publish` on a terminal: util-linux's `script` gives it a pseudo-terminal for stdin, stdout and stderr. */

const bin = new URL('../../../../bin/tocsin.js', import.meta.url).pathname;
const dir = tempDir();
let s: TestServer;
before(async () => {
  s = await startTestServer({
    'base-url': 'http://tocsin.test',
    'attachment-cache-dir': join(dir, 'attachments'),
    'auth-file': join(dir, 'auth.db'),
    'auth-default-access': 'deny-all',
    'auth-users': [`phil:${bcrypt.hashSync('hunter2', 4)}:user`],
    'auth-access': ['phil:tty*:rw'],
  });
});
after(() => s.server.close());

/** Runs `tocsin <args>` on a terminal; `answer` is typed once `prompt` has shown. Resolves with what the terminal showed. */
function onTerminal(args: string[], typed?: { prompt: string; answer: string }): Promise<{ code: number | null; screen: string }> {
  const command = [process.execPath, bin, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');
  const child = spawn('script', ['-qefc', command, '/dev/null'], { env: clientEnv(), stdio: ['pipe', 'pipe', 'inherit'] });
  let screen = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    screen += chunk;
    if (typed && screen.includes(typed.prompt)) {
      child.stdin.write(typed.answer);
      typed = undefined;
    }
  });
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, screen })));
}

/** The JSON line printed last; the prompt and the progress bar end in a carriage return before it. */
const lastJson = (screen: string): Json => JSON.parse(screen.trim().split(/[\r\n]/).at(-1) as string) as Json;

describe('tocsin publish — on a terminal', () => {
  it('draws an upload progress bar on stderr and clears it', async () => {
    const file = join(dir, 'big.bin');
    writeFileSync(file, Buffer.alloc(3 * 1024 * 1024, 1));
    const { code, screen } = await onTerminal(['pub', '-u', 'phil:hunter2', '--file', file, `${s.url}/tty-files`, 'big one']);
    assert.equal(code, 0);
    assert.match(screen, /\r\[={30}\] 100% {2}3\.0 MB \/ 3\.0 MB\r {54}\r/);
    assert.deepEqual((lastJson(screen).attachment as Json).size, 3 * 1024 * 1024);
  });

  it('asks for the password without echoing it', async () => {
    const { code, screen } = await onTerminal(['pub', '-u', 'phil', `${s.url}/tty-secret`, 'typed password'], { prompt: 'Enter Password: ', answer: 'hunter2\r' });
    assert.equal(code, 0);
    assert.ok(!screen.includes('hunter2'), JSON.stringify(screen));
    assert.equal(lastJson(screen).message, 'typed password');
  });

  it('refuses an empty password typed on a terminal', async () => {
    const { code, screen } = await onTerminal(['pub', '-u', 'phil', `${s.url}/tty-secret`, 'x'], { prompt: 'Enter Password: ', answer: '\r' });
    assert.equal(code, 1);
    assert.match(screen, /password cannot be empty\r?\n$/);
  });
});
