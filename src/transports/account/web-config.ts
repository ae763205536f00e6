import type { Config } from '../../config/schema.js';
import { errors } from '../../model/errors.js';
import type { ServerContext } from '../context.js';
import type { Exchange } from '../http/respond.js';

/**
 * What ntfy's web app reads at start (apiConfigResponse): which account features this
 * server offers. Payments are not offered by Tocsin.
 */
function webConfig(config: Config): Record<string, unknown> {
  const prefix = pathPrefix(config.baseUrl);
  return {
    ...prefix,
    enable_login: config.enableLogin,
    require_login: config.requireLogin,
    enable_signup: config.enableSignup,
    auth_oidc: config.oidc !== undefined, // Tocsin's own: the login page offers single sign-on (/v1/auth/oidc/login)
    enable_payments: false,
    enable_calls: config.twilio !== undefined,
    enable_emails: config.smtpSender !== undefined, // ntfy tells whether smtp-sender-from is set; here, whether mail goes out
    enable_reset_password: config.smtpSender !== undefined, // reset links need the relay and base-url, which smtp-sender-addr requires
    enable_reservations: config.enableReservations,
    enable_web_push: config.webPush !== undefined,
    billing_contact: '',
    web_push_public_key: config.webPush?.publicKey ?? '',
    disallowed_topics: config.disallowedTopics,
    auth_logout_url: config.authLogoutUrl, // after ntfy 2.28 (proxy-header auth): where logout sends a user the proxy logged in
    config_hash: config.configHash,
  };
}

/**
 * Where the pages are: ntfy answers `base_url: ""` (the page's own origin) and `app_root: "/"`.
 * Behind a proxy that strips a path prefix (base-url http://host/ntfy) the page cannot
 * tell the prefix from a topic, so both carry it: the API's URL, and the path the app's
 * routes hang below. Without a path, ntfy's answer stays, so the page works under any host name.
 */
export function pathPrefix(baseUrl: string): { base_url: string; app_root: string } {
  const path = (/^[a-z][a-z0-9+.-]*:\/\/[^/]*(\/[^?#]*)/i.exec(baseUrl)?.[1] ?? '').replace(/\/+$/, '');
  return path ? { base_url: baseUrl, app_root: `${path}/` } : { base_url: '', app_root: '/' };
}

/** GET /v1/config, not cached (ntfy's handleConfig): the web app compares it with what it started with. */
export function getWebConfig(ctx: ServerContext, ex: Exchange): void {
  ex.send(200, `${JSON.stringify(webConfig(ctx.config))}\n`, 'application/json', [['Cache-Control', 'no-cache']]);
}

/** GET /config.js, as ntfy serves it to its web app. */
export function getWebConfigScript(ctx: ServerContext, ex: Exchange): void {
  if (!ctx.config.webRoot) throw errors.notFound; // as ntfy's ensureWebEnabled: no pages, nothing to configure
  const script = `// Generated server configuration\nvar config = ${JSON.stringify(webConfig(ctx.config), null, 2)};\n`;
  ex.send(200, script, 'text/javascript', [['Cache-Control', 'no-cache']]);
}
