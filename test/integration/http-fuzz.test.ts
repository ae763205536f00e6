import assert from 'node:assert/strict';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import fc from 'fast-check';
import webpush from 'web-push';
import { send, ntfyCode, type Answer } from '../support/fuzz-client.js';
import { encodeRequest, fuzzRequest, type FuzzRequest } from '../support/fuzz-requests.js';
import { spawnServer, tempDir, type ChildServer } from '../support/server.js';

/**
 * Hostile traffic against a real server in its own process: every request gets a status
 * line, no request gets a 5xx, every refusal carries an ntfy code, and the server is
 * healthy after. FUZZ_RUNS (default 3,000) and FUZZ_SEED vary the run; a failure names
 * its seed and index, and `fc.sample(fuzzRequest, { seed, numRuns })[index]` replays it.
 */
const runs = Number(process.env.FUZZ_RUNS ?? 3000);
const seed = Number(process.env.FUZZ_SEED ?? 20261123);
const inFlight = 32;

/** Methods uWS's parser knows; it closes the connection on any other (`FOO`, lower-case `get`). */
const uwsMethods = new Set(['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS', 'TRACE', 'CONNECT']);

const dir = tempDir();
const vapid = webpush.generateVAPIDKeys();
// Started at the top level: spawnServer registers its own cleanup, which inside `before` would run as `before` ends.
const starting = spawnServer([
  '--base-url', 'http://files.example',
  '--attachment-cache-dir', join(dir, 'files'),
  '--cache-file', join(dir, 'cache.db'),
  '--auth-file', join(dir, 'auth.db'),
  '--enable-login', 'true',
  '--enable-signup', 'true',
  '--enable-reservations', 'true',
  '--web-push-public-key', vapid.publicKey,
  '--web-push-private-key', vapid.privateKey,
  '--web-push-file', join(dir, 'webpush.db'),
  '--web-push-email-address', 'admin@files.example',
]);
let server: ChildServer;
let port: number;
before(async () => {
  server = await starting;
  port = Number(new URL(server.url).port);
});

async function answerAll(requests: FuzzRequest[]): Promise<Answer[]> {
  const answers: Answer[] = new Array(requests.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < requests.length) {
      const i = next++;
      const req = requests[i] as FuzzRequest;
      answers[i] = await send(port, encodeRequest(req, '127.0.0.1'), 10_000, req.method === 'HEAD');
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  return answers;
}

async function assertHealthy(): Promise<void> {
  assert.equal(server.child.exitCode, null, 'the server process is still running');
  assert.deepEqual(await (await fetch(`${server.url}/v1/health`)).json(), { healthy: true });
  const published = (await (await fetch(`${server.url}/after-fuzz`, { method: 'POST', body: 'still here' })).json()) as { id: string };
  const polled = await (await fetch(`${server.url}/after-fuzz/json?poll=1`)).text();
  assert.equal((JSON.parse(polled.trim().split('\n').pop() as string) as { id: string }).id, published.id);
}

describe('HTTP fuzz — every request answered', () => {
  it(`${runs} grammar-generated requests (seed ${seed}): a status line each, no 5xx, ntfy codes on refusals`, async () => {
    const requests = fc.sample(fuzzRequest, { seed, numRuns: runs });
    const answers = await answerAll(requests);
    const failures: string[] = [];
    answers.forEach((answer, i) => {
      const req = requests[i] as FuzzRequest;
      const why = verdict(req, answer);
      if (why) failures.push(`seed ${seed} index ${i}: ${why}: ${JSON.stringify(req).slice(0, 400)}`);
    });
    assert.deepEqual(failures.slice(0, 10), [], `${failures.length} of ${runs} failed`);
    const answered = answers.filter((a) => typeof a.status === 'number').length;
    assert.ok(answered > runs * 0.6, `most requests use methods uWS knows (${answered})`);
    await assertHealthy();
  });
});

/** Why an answer is wrong for its request, or undefined when it is right. */
function verdict(req: FuzzRequest, answer: Answer): string | undefined {
  if (!uwsMethods.has(req.method)) return answer.status === 'closed' ? undefined : `method ${req.method}: expected uWS to close, got ${answer.status}`;
  if (typeof answer.status !== 'number') return `no status line (${answer.status})`;
  if (answer.status >= 500) return `status ${answer.status} (${ntfyCode(answer) ?? 'no code'})`;
  if (answer.status >= 400 && req.method !== 'HEAD' && ntfyCode(answer) === undefined) return `status ${answer.status} without an ntfy code`;
  return undefined;
}

/**
 * Requests uWS's own parser refuses: broken framing and unknown methods are closed at
 * once; a request it cannot read to its end (no Host, bare LF, a folded header, an
 * HTTP/2 preface, NUL bytes, too many headers) is closed by its 10-second idle timeout.
 * Neither gets a status line (uWS writes none), but none may stay open or hurt the server.
 */
const parserRefusals: Record<string, string> = {
  'unknown method': 'FOO / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n',
  'lower-case method': 'get /v1/health HTTP/1.1\r\nHost: x\r\n\r\n',
  'bad chunk size': 'POST /t HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhi\r\n0\r\n\r\n',
  'Content-Length and chunked': 'POST /t HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhi\r\n0\r\n\r\n',
  'Content-Length not a number': 'POST /t HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\nhi',
  'no Host': 'GET /v1/health HTTP/1.1\r\n\r\n',
  'bare LF': 'GET /v1/health HTTP/1.1\nHost: x\n\n',
  'folded header': 'GET /v1/health HTTP/1.1\r\nHost: x\r\nX-A: a\r\n b\r\n\r\n',
  'HTTP/2 preface': 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n',
  'NUL in a header': 'GET /v1/health HTTP/1.1\r\nHost: x\r\nX-A: a\u0000b\r\n\r\n',
  'too many headers': `GET /v1/health HTTP/1.1\r\nHost: x\r\n${Array.from({ length: 120 }, (_, i) => `X-${i}: a\r\n`).join('')}\r\n`,
};

describe('HTTP fuzz — what uWS refuses before Tocsin sees it', () => {
  it('is closed (at once, or by the idle timeout) and leaves the server healthy', async () => {
    const answers = await Promise.all(Object.values(parserRefusals).map((text) => send(port, Buffer.from(text, 'latin1'), 15_000)));
    const outcomes = Object.fromEntries(Object.keys(parserRefusals).map((name, i) => [name, answers[i]?.status]));
    assert.deepEqual(outcomes, Object.fromEntries(Object.keys(parserRefusals).map((name) => [name, 'closed'])));
    await assertHealthy();
  });
});
