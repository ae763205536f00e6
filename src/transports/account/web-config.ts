import type { Config } from '../../config/schema.js';
import type { ServerContext } from '../context.js';
import type { Exchange } from '../http/respond.js';

/**
 * What ntfy's web app reads at start (apiConfigResponse): which account features this
 * server offers. Payments are not offered by Tocsin.
 */
function webConfig(config: Config): Record<string, unknown> {
  return {
    base_url: '',
    app_root: '/',
    enable_login: config.enableLogin,
    enable_signup: config.enableSignup,
    enable_payments: false,
    enable_calls: config.twilio !== undefined,
    enable_emails: config.smtpSender !== undefined, // ntfy tells whether smtp-sender-from is set; here, whether mail goes out
    enable_reservations: config.enableReservations,
    enable_web_push: config.webPush !== undefined,
    billing_contact: '',
    web_push_public_key: config.webPush?.publicKey ?? '',
    disallowed_topics: config.disallowedTopics,
  };
}

/** GET /v1/config */
export function getWebConfig(ctx: ServerContext, ex: Exchange): void {
  ex.json(webConfig(ctx.config));
}

/** GET /config.js, as ntfy serves it to its web app. */
export function getWebConfigScript(ctx: ServerContext, ex: Exchange): void {
  const script = `// Generated server configuration\nvar config = ${JSON.stringify(webConfig(ctx.config), null, 2)};\n`;
  ex.send(200, script, 'text/javascript', [['Cache-Control', 'no-cache']]);
}
