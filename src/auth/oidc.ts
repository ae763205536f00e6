import * as client from 'openid-client';
import type { OidcConfig } from '../config/schema.js';

/**
 * Single sign-on through an OpenID Connect provider (issue 38): the authorization code flow
 * with PKCE, state and nonce, by openid-client. What the provider vouches for is returned
 * as claims; who that makes the visitor in Tocsin is the caller's business.
 */

/** A login started here and not yet come back: what the callback must present and check. */
interface Pending {
  verifier: string;
  nonce: string;
  /** Date.now() when started. */
  created: number;
}

/** The claims of a verified ID token. */
export type Claims = Record<string, unknown>;

/** The login came back wrong: unknown or expired state, or the provider refused or did not verify. */
export class SignOnRefused extends Error {}
/** The provider could not be reached (discovery or the token request). */
export class ProviderUnavailable extends Error {}

/** A login not completed within this long is forgotten; the provider's own login page rarely takes longer. */
export const pendingTtlMs = 10 * 60_000;
/**
 * Logins started and not finished that are kept at once. Anyone may start one, so the
 * oldest are forgotten past this (each about 200 bytes: at most a few MB held).
 */
export const pendingCap = 10_000;

export class OidcSignOn {
  /** By state, oldest first (a Map keeps insertion order). */
  private readonly pending = new Map<string, Pending>();
  private discovered: Promise<client.Configuration> | undefined;

  constructor(
    private readonly config: OidcConfig,
    /** base-url + /v1/auth/oidc/callback, as registered at the provider. */
    readonly redirectUri: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** The provider's URL to send the browser to, remembering the login's checks under its state. */
  async start(): Promise<URL> {
    const provider = await this.provider();
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    this.remember(state, { verifier, nonce, created: this.now() });
    return client.buildAuthorizationUrl(provider, {
      redirect_uri: this.redirectUri,
      scope: 'openid profile',
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
  }

  /**
   * The verified ID token's claims of the callback at `url` (the redirect URI with the
   * provider's query). The state is used up first, so each started login reaches the
   * provider's token endpoint at most once, whatever is sent here.
   */
  async finish(url: URL): Promise<Claims> {
    const state = url.searchParams.get('state') ?? '';
    const login = this.pending.get(state);
    this.pending.delete(state);
    if (!login || this.now() - login.created > pendingTtlMs) throw new SignOnRefused('the sign-on is unknown or expired');
    const provider = await this.provider();
    try {
      const tokens = await client.authorizationCodeGrant(provider, url, { pkceCodeVerifier: login.verifier, expectedState: state, expectedNonce: login.nonce, idTokenExpected: true });
      const claims = tokens.claims();
      if (!claims) throw new SignOnRefused('the provider sent no ID token');
      return claims;
    } catch (err) {
      if (err instanceof SignOnRefused) throw err;
      if (err instanceof TypeError) throw new ProviderUnavailable(err.message, { cause: err });
      throw new SignOnRefused(reasonOf(err), { cause: err });
    }
  }

  /** Logins waiting for their callback (for tests and metrics). */
  get pendingCount(): number {
    return this.pending.size;
  }

  private remember(state: string, login: Pending): void {
    for (const [key, old] of this.pending) {
      if (this.pending.size < pendingCap && login.created - old.created <= pendingTtlMs) break;
      this.pending.delete(key);
    }
    this.pending.set(state, login);
  }

  /** The provider's metadata, discovered at the first login and kept; a failed discovery is tried again at the next. */
  private provider(): Promise<client.Configuration> {
    this.discovered ??= client
      .discovery(new URL(this.config.issuer), this.config.clientId, { redirect_uris: [this.redirectUri] }, client.ClientSecretBasic(this.config.clientSecret), {
        // load.ts allows http only to this machine
        ...(this.config.issuer.startsWith('http:') && { execute: [client.allowInsecureRequests] }),
      })
      .catch((err: unknown) => {
        this.discovered = undefined;
        throw new ProviderUnavailable((err as Error).message, { cause: err });
      });
    return this.discovered;
  }
}

/** The provider's own error code and words (invalid_grant, access_denied, …) when it gave them. */
function reasonOf(err: unknown): string {
  if (err instanceof client.ResponseBodyError || err instanceof client.AuthorizationResponseError) {
    return err.error_description ? `${err.error}: ${err.error_description}` : err.error;
  }
  return (err as Error).message;
}
