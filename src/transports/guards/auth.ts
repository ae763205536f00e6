import type { Permission } from '../../model/access.js';
import { clientAddressOf } from '../client.js';
import { requestCredentials } from '../http/proxy-credentials.js';
import type { Guard } from './guard.js';

/**
 * Who the request is: 40101 for credentials that fail, 42909 past the failed-login limit.
 * Without an auth-file every request is anonymous and no credentials are read.
 */
export const authenticate: Guard = (gate) => {
  const access = gate.ctx.access;
  if (!access) return;
  return access.authenticate(requestCredentials(gate.ctx, gate.req), clientAddressOf(gate.ctx, gate.req)).then((user) => {
    gate.user = user;
    gate.req.seen.user = user?.name;
  });
};

/** Whether the user (or anonymous) may `want` every topic of the request (40301); with no auth-file, every topic is open. */
export const permission =
  (want: keyof Permission): Guard =>
  (gate) =>
    gate.ctx.access?.authorize(gate.user, gate.topics, want);
