import { generateKeyPairSync } from 'node:crypto';
import { createServer } from 'node:http';
import Provider from 'oidc-provider';

/** Who the provider's user is: the claims Tocsin reads. */
export interface Person {
  preferred_username: string;
  groups?: string[];
}

export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The accounts the provider knows, by id (sub); a test changes them between sign-ons. */
  people: Map<string, Person>;
  /** The account the next login interaction signs in as. */
  signInAs(id: string): void;
  close(): Promise<void>;
}

/**
 * A real OpenID provider (oidc-provider) on a free 127.0.0.1 port, with one confidential
 * client whose redirect URI is `redirectUri`. Its login and consent interaction is completed
 * at once for the account chosen with signInAs, so a browser (or a test following
 * redirects with a cookie jar) goes from the authorization request to the callback.
 * Profile claims (preferred_username, groups) go into the ID token, where Tocsin reads them.
 */
export async function startTestProvider(redirectUri: string): Promise<TestProvider> {
  const people = new Map<string, Person>();
  let current = '';
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const provider = new Provider(issuer, {
    clients: [{ client_id: 'tocsin', client_secret: 'tocsin-secret', redirect_uris: [redirectUri], grant_types: ['authorization_code'], response_types: ['code'] }],
    jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), alg: 'RS256', use: 'sig' }] },
    cookies: { keys: ['test-cookie-key'] },
    claims: { openid: ['sub'], profile: ['preferred_username', 'groups'] },
    conformIdTokenClaims: false,
    ttl: { Interaction: 600, Session: 600, Grant: 600, AccessToken: 600, IdToken: 600 },
    features: { devInteractions: { enabled: false } },
    findAccount: (_ctx, sub) => {
      const person = people.get(sub);
      return person && { accountId: sub, claims: () => ({ sub, ...person }) };
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
  });
  const handle = provider.callback();
  server.on('request', (req, res) => {
    if (!req.url?.startsWith('/interaction/')) return void handle(req, res);
    void (async () => {
      const details = await provider.interactionDetails(req, res);
      if (details.prompt.name === 'login') return provider.interactionFinished(req, res, { login: { accountId: current } });
      const grant = new provider.Grant({ accountId: details.session?.accountId ?? current, clientId: details.params.client_id as string });
      grant.addOIDCScope('openid profile');
      return provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true });
    })().catch((err: unknown) => {
      res.statusCode = 500;
      res.end(String(err));
    });
  });
  return {
    issuer,
    clientId: 'tocsin',
    clientSecret: 'tocsin-secret',
    people,
    signInAs: (id) => {
      current = id;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** GET `url` and the redirects that follow, with one cookie jar, as a browser would; the last response and the URLs passed. */
export async function followRedirects(url: string, headers: Record<string, string> = {}, stopAt?: (url: URL) => boolean): Promise<{ res: Response; trail: string[] }> {
  const jar = new Map<string, string>();
  const trail: string[] = [];
  let next = new URL(url);
  for (let hop = 0; hop < 20; hop++) {
    trail.push(next.href);
    const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(next, { redirect: 'manual', headers: { ...headers, ...(cookie && { cookie }) } });
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
    const location = res.headers.get('location');
    if (res.status < 300 || res.status >= 400 || !location) return { res, trail };
    next = new URL(location, next);
    if (stopAt?.(next)) {
      trail.push(next.href);
      await res.body?.cancel();
      return { res, trail };
    }
    await res.body?.cancel();
  }
  throw new Error(`too many redirects: ${trail.join(' → ')}`);
}
