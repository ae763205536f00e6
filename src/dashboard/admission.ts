import { errors } from '../model/errors.js';
import { authenticate } from '../transports/guards/auth.js';
import { Gate, runGuards, type Guard } from '../transports/guards/guard.js';
import type { Handler } from '../transports/routes.js';
import { requestRate } from '../transports/guards/request-rate.js';

/**
 * Admins only: 40101 for anonymous requests (and credentials that fail, in
 * `authenticate`), 40301 for a user who is no admin. Without access control there are no
 * admins and every topic is open to everyone; the feed is then open too, and withholds
 * topic names (frame.ts), which are all it takes to read a topic there.
 */
const admin: Guard = (gate) => {
  if (!gate.ctx.access) return;
  if (!gate.user) throw errors.unauthorized;
  if (gate.user.role !== 'admin') throw errors.forbidden;
};

/** GET /v1/dashboard/ws: who it is, one request from its visitor's bucket (42901), an admin. */
export const watcherGuards: readonly Guard[] = [authenticate, requestRate('own'), admin];

/**
 * GET /v1/dashboard/ws without an upgrade: 404 when the dashboard is off, the refusal the
 * upgrade would get, or else 40016. A page asks this before it connects, since a browser's
 * WebSocket that is refused learns no status.
 */
export const feedProbe: Handler = async (ctx, _ex, req) => {
  if (!ctx.config.enableDashboard) throw errors.notFound;
  await runGuards(watcherGuards, new Gate(ctx, req, []));
  throw errors.webSocketUpgradeMissing;
};
