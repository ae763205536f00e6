/** What the server tells the page in /config.js (src/transports/account/web-config.ts, ntfy's apiConfigResponse). */
export interface ServerConfig {
  base_url: string;
  app_root: string;
  enable_login: boolean;
  /** ntfy 2.15: visitors who are not logged in see the login page only. */
  require_login: boolean;
  enable_signup: boolean;
  /** Tocsin's own: single sign-on through an OpenID Connect provider at /v1/auth/oidc/login. */
  auth_oidc?: boolean;
  enable_reservations: boolean;
  enable_emails: boolean;
  /** ntfy 2.25: a forgotten password can be reset by a mailed link. */
  enable_reset_password: boolean;
  disallowed_topics: string[];
  /** Whether the server sends Web Push (web-push-public-key set), and the VAPID key browsers subscribe with. */
  enable_web_push: boolean;
  web_push_public_key: string;
  /** Where logout goes (auth-logout-url): the proxy's own logout, which ends the login it vouches for. */
  auth_logout_url?: string;
}

declare global {
  interface Window {
    config?: ServerConfig;
  }
}

export const serverConfig: ServerConfig = window.config ?? {
  base_url: '',
  app_root: '/',
  enable_login: false,
  require_login: false,
  enable_signup: false,
  enable_reservations: false,
  enable_emails: false,
  enable_reset_password: false,
  disallowed_topics: [],
  enable_web_push: false,
  web_push_public_key: '',
};

/**
 * The server's URL: ntfy's empty base_url means the page's own origin; behind a proxy
 * that strips a path prefix, config.js names the prefixed URL. Every request goes below it.
 */
export const apiBase = (serverConfig.base_url || window.location.origin).replace(/\/+$/, '');

/** The path the app's own routes (/{topic}, /account, …) hang below: `/`, or `/ntfy/` behind a prefix. */
export const appRoot = serverConfig.app_root.endsWith('/') ? serverConfig.app_root : `${serverConfig.app_root}/`;

export const topicUrl = (topic: string): string => `${apiBase}/${topic}`;
