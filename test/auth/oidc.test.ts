import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { OidcSignOn, pendingCap, pendingTtlMs, SignOnRefused } from '../../src/auth/oidc.js';
import { followRedirects, startTestProvider, type TestProvider } from '../support/oidc-provider.js';

/** The logins OidcSignOn holds between the redirect and the callback: expiring, capped, used once (issue 38). */

const redirectUri = 'http://127.0.0.1:1/v1/auth/oidc/callback';
let idp: TestProvider;
let clock = 0;
let oidc: OidcSignOn;
before(async () => {
  idp = await startTestProvider(redirectUri);
  idp.people.set('sub-ana', { preferred_username: 'ana', groups: ['ops'] });
  idp.signInAs('sub-ana');
  const config = { issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret, usernameClaim: 'preferred_username', groupsClaim: 'groups', adminGroups: [] };
  oidc = new OidcSignOn(config, redirectUri, () => clock);
});
after(() => idp.close());

/** Starts a login and takes it through the provider: the callback URL it comes back with. */
async function callbackUrl(): Promise<URL> {
  const { trail } = await followRedirects((await oidc.start()).href, {}, (url) => url.href.startsWith(redirectUri));
  return new URL(trail.at(-1) ?? '');
}

describe('OIDC pending logins', () => {
  it('answers the verified claims once, then refuses the same callback', async () => {
    const url = await callbackUrl();
    const claims = await oidc.finish(url);
    assert.equal(claims.preferred_username, 'ana');
    assert.deepEqual(claims.groups, ['ops']);
    await assert.rejects(oidc.finish(url), SignOnRefused);
  });

  it('refuses a login that came back after its TTL', async () => {
    const url = await callbackUrl();
    clock += pendingTtlMs + 1;
    await assert.rejects(oidc.finish(url), { name: 'Error', message: 'the sign-on is unknown or expired' });
  });

  it(`keeps at most ${pendingCap} logins, forgetting the oldest first and the expired ones as new ones come`, async () => {
    const first = await callbackUrl();
    for (let i = 0; i < pendingCap; i++) await oidc.start();
    assert.equal(oidc.pendingCount, pendingCap);
    await assert.rejects(oidc.finish(first), SignOnRefused);
    clock += pendingTtlMs + 1;
    await oidc.start();
    assert.equal(oidc.pendingCount, 1);
  });
});
