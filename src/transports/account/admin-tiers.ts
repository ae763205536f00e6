import type { Tier } from '../../model/account.js';
import { errors } from '../../model/errors.js';
import { defaultTier, limitsJson, limitValue, tierCodePattern, tierLimits, tierNameMaxLength } from '../../model/tier-limits.js';
import { AlreadyExists, InUse } from '../../store/auth-store.js';
import type { ServerContext } from '../context.js';
import { readJson } from '../http/body.js';
import type { RequestInfo } from '../http/request.js';
import type { Exchange } from '../http/respond.js';
import { accounts, requireAdmin, text } from './session.js';

/**
 * The admin API's tiers (issue 38), what `tocsin tier list|add|change|remove` does: each
 * tier as `{"code","name","limits":{…}}`, the limits keyed as /v1/account's (seconds, bytes),
 * given as whole numbers or as the CLI's words ("12h", "15M"), checked by model/tier-limits.ts
 * as the CLI checks its flags. ntfy's own GET /v1/tiers lists its Stripe tiers; Tocsin sells none.
 */

const success = { success: true };

/** GET /v1/tiers: every tier by code, with its limits. */
export async function listTiers(ctx: ServerContext, ex: Exchange, req: RequestInfo): Promise<void> {
  await requireAdmin(ctx, req);
  const tiers = await accounts(ctx).store.tiers();
  ex.json(tiers.map((t) => ({ code: t.code, name: t.name, limits: limitsJson(t) })));
}

/** POST /v1/tiers: a new tier; limits not given take `tocsin tier add`'s defaults (ntfy's). */
export async function addTier(ctx: ServerContext, ex: Exchange, req: RequestInfo): Promise<void> {
  const fields = await adminBody(ctx, ex, req);
  const code = tierCode(fields);
  const added = withChanges(defaultTier(code, code), fields);
  try {
    await accounts(ctx).store.putTier(added, false);
  } catch (err) {
    throw err instanceof AlreadyExists ? errors.tierExists : err;
  }
  ex.json(success);
}

/** PUT /v1/tiers: changes the name or limits given, keeps the others. */
export async function changeTier(ctx: ServerContext, ex: Exchange, req: RequestInfo): Promise<void> {
  const fields = await adminBody(ctx, ex, req);
  const store = accounts(ctx).store;
  const tier = await existingTier(ctx, tierCode(fields));
  await store.putTier(withChanges(tier, fields), true);
  ex.json(success);
}

/** DELETE /v1/tiers {"code"}: 40913 while a user is on it, as the CLI fails then. */
export async function removeTier(ctx: ServerContext, ex: Exchange, req: RequestInfo): Promise<void> {
  const fields = await adminBody(ctx, ex, req);
  const tier = await existingTier(ctx, tierCode(fields));
  try {
    await accounts(ctx).store.removeTier(tier.code);
  } catch (err) {
    throw err instanceof InUse ? errors.tierInUse : err;
  }
  ex.json(success);
}

/** The body, read only once the caller is known to be an admin. */
async function adminBody(ctx: ServerContext, ex: Exchange, req: RequestInfo): Promise<Record<string, unknown>> {
  const body = readJson(ex);
  await requireAdmin(ctx, req);
  return body;
}

function tierCode(fields: Record<string, unknown>): string {
  const code = text(fields, 'code');
  if (!tierCodePattern.test(code)) throw errors.badRequest.wrap('tier code must be 1-64 letters, digits, - or _');
  return code;
}

async function existingTier(ctx: ServerContext, code: string): Promise<Tier> {
  const tier = await accounts(ctx).store.tier(code);
  if (!tier) throw errors.tierInvalid;
  return tier;
}

/** `tier` with the body's `name` and `limits` applied: 40024 for a value of the wrong type, 40000 for a bad one or an unknown limit. */
function withChanges(tier: Tier, fields: Record<string, unknown>): Tier {
  const name = text(fields, 'name');
  if (name.length > tierNameMaxLength) throw errors.badRequest.wrap(`tier name longer than ${tierNameMaxLength} characters`);
  const changed = { ...tier, ...(name && { name }) };
  const limits = fields.limits ?? {};
  if (typeof limits !== 'object' || Array.isArray(limits)) throw errors.jsonInvalid;
  for (const [key, value] of Object.entries(limits)) {
    const limit = tierLimits.find((l) => l.key === key);
    if (!limit) throw errors.badRequest.wrap(`unknown limit ${JSON.stringify(key.slice(0, 64))}`);
    if (typeof value !== 'number' && typeof value !== 'string') throw errors.jsonInvalid;
    const parsed = limitValue(limit, value);
    if (parsed === undefined) throw errors.badRequest.wrap(`invalid value for limits.${key}`);
    changed[limit.field] = parsed;
  }
  return changed;
}
