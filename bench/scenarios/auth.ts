import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import bcrypt from 'bcryptjs';
import type { Figure, Scenario } from '../figures.js';
import type { HttpLoad, HttpLoadResult } from '../load/autocannon.js';
import { hasWrk, runWrk } from '../load/wrk.js';
import { startTocsin } from '../targets.js';

const connections = 64;
const token = 'tk_benchbenchbenchbenchbenchbe12';

/**
 * 7. Access control on the publish path (Tocsin only): publish rate to one topic with no
 * auth-file, and with one — anonymous, Basic (bcrypt cost 10, as ntfy stores passwords)
 * and a Bearer token. Basic should cost a cached digest, not a bcrypt, per request.
 */
export const authScenario: Scenario = async (target, sizes, load) => {
  if (target.name !== 'tocsin') return [];
  const client = (await hasWrk()) ? 'wrk' : 'autocannon';
  const run = async (url: string, authorization?: string): Promise<number> => {
    const l: HttpLoad = { url, topics: 1, connections, durationSeconds: sizes.publishSeconds, rate: 0, authorization };
    const r = client === 'wrk' ? await runWrk(l) : await load.autocannon.call<HttpLoadResult>('run', l);
    if (r.errors > 0) throw new Error(`auth scenario: ${r.errors} failed publishes (${authorization ?? 'anonymous'})`);
    return r.rps;
  };
  const figure = (credentials: string, value: number): Figure => ({
    scenario: 'auth', name: 'publish rate', value, unit: 'req/s', better: 'higher', params: { credentials, connections, client },
  });

  const figures = [figure('no auth-file', await run(target.url))];
  const dir = mkdtempSync(join(tmpdir(), 'tocsin-bench-'));
  const hash = bcrypt.hashSync('bench-password', 10);
  const secured = await startTocsin({
    settings: [
      '--auth-file', join(dir, 'auth.db'), '--auth-default-access', 'deny-all',
      '--auth-users', `phil:${hash}:user`, '--auth-access', 'phil:bench:rw,*:bench:wo', '--auth-tokens', `phil:${token}`,
    ],
  });
  try {
    figures.push(figure('anonymous', await run(secured.url)));
    figures.push(figure('basic', await run(secured.url, `Basic ${Buffer.from('phil:bench-password').toString('base64')}`)));
    figures.push(figure('token', await run(secured.url, `Bearer ${token}`)));
  } finally {
    await secured.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return figures;
};
