import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createECDH } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { tempDir } from '../support/server.js';

/** `tocsin webpush keys` (ntfy's `ntfy webpush keys`): a VAPID key pair, as ntfy prints it. */

const bin = new URL('../../../bin/tocsin.js', import.meta.url).pathname;

function tocsin(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], (err, stdout, stderr) => resolve({ code: err ? Number(err.code) : 0, stdout, stderr }));
  });
}

/** The key pair is a P-256 one: the public key is the point of the private key, both base64url. */
function assertPair(publicKey: string, privateKey: string): void {
  assert.equal(Buffer.from(privateKey, 'base64url').length, 32);
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(Buffer.from(privateKey, 'base64url'));
  assert.equal(ecdh.getPublicKey('base64url'), publicKey);
}

describe('cli — webpush keys', () => {
  it('prints a new key pair and the lines to add, on stderr, as ntfy', async () => {
    const run = await tocsin(['webpush', 'keys']);
    assert.equal(run.code, 0);
    assert.equal(run.stdout, '');
    const match = /^Web Push keys generated\. Add the following lines to your config file:\n\nweb-push-public-key: (\S+)\nweb-push-private-key: (\S+)\nweb-push-file: \/var\/cache\/ntfy\/webpush\.db # or similar\nweb-push-email-address: <email address>\n\nSee https:\/\/ntfy\.sh\/docs\/config\/#web-push for details\.\n$/.exec(run.stderr);
    assert.ok(match, run.stderr);
    assertPair(match[1] as string, match[2] as string);
    const again = await tocsin(['webpush', 'keys']);
    assert.notEqual(again.stderr, run.stderr, 'a new pair each time');
  });

  it('--output-file writes the two keys as YAML', async () => {
    const file = join(tempDir(), 'keys.yml');
    const run = await tocsin(['webpush', 'keys', '--output-file', file]);
    assert.deepEqual([run.code, run.stderr], [0, `Web Push keys written to ${file}.\n`]);
    const keys = parse(readFileSync(file, 'utf8')) as Record<string, string>;
    assert.deepEqual(Object.keys(keys), ['web-push-public-key', 'web-push-private-key']);
    assertPair(keys['web-push-public-key'] as string, keys['web-push-private-key'] as string);
  });
});
