import type { User } from '../model/access.js';
import { errors } from '../model/errors.js';
import { defaultAlertPriority, monitorBounds, monitorJson, monitorKeyPattern, type Monitor, type MonitorSettings } from '../monitors/monitor.js';
import type { Monitors } from '../monitors/monitors.js';
import { nowSeconds } from '../model/message.js';
import { scopesAllow } from '../model/token-scope.js';
import { MonitorExists, TooManyMonitors } from '../store/monitor-store.js';
import type { ServerContext } from './context.js';
import { authenticate } from './guards/auth.js';
import { Gate, runGuards } from './guards/guard.js';
import { requestRate } from './guards/request-rate.js';
import { readJson } from './http/body.js';
import type { RequestInfo } from './http/request.js';
import type { Exchange } from './http/respond.js';
import { namePattern } from './publish/parse.js';

/**
 * The heartbeat monitors API (ntfy's server_monitor.go): every route needs monitor-file
 * (40066) and a user (40101); a user sees and pings only their own monitors, so another
 * user's key is 40402, not 40301. An alert topic must be one the user may write (40301),
 * checked here and again at each alert. A topic-scoped token works only on monitors whose
 * alert topic it may write (inScope).
 */

/** GET /v1/monitors: the user's monitors, by key. */
export async function listMonitors(ctx: ServerContext, ex: Exchange, req: RequestInfo): Promise<void> {
  const { monitors, user } = await monitorRequest(ctx, req);
  ex.json({ monitors: (await monitors.store.list(user.name)).filter((m) => inScope(user, m)).map(monitorJson) });
}

/** POST /v1/monitors: a new monitor, `pending` until its first heartbeat. */
export async function addMonitor(ctx: ServerContext, ex: Exchange, req: RequestInfo): Promise<void> {
  const body = readJson(ex);
  const { monitors, user } = await monitorRequest(ctx, req);
  const fields = await bodyOf(body);
  const key = fields.key ?? '';
  if (typeof key !== 'string') throw errors.monitorBodyInvalid;
  if (!monitorKeyPattern.test(key)) throw errors.monitorKeyInvalid;
  const settings = settingsOf(ctx, fields, true) as MonitorSettings;
  await ctx.access?.authorize(user, [settings.alertTopic], 'write');
  try {
    ex.json(monitorJson(await monitors.store.add(user.name, key, settings, monitors.options.limit, nowSeconds())));
  } catch (err) {
    if (err instanceof MonitorExists) throw errors.monitorExists;
    if (err instanceof TooManyMonitors) throw errors.tooManyMonitors.wrap(err.message);
    throw err;
  }
}

/** GET /v1/monitors/<key>. */
export async function getMonitor(ctx: ServerContext, ex: Exchange, req: RequestInfo, [key]: string[]): Promise<void> {
  const { monitors, user } = await monitorRequest(ctx, req);
  const monitor = found(await monitors.store.get(user.name, key as string));
  if (!inScope(user, monitor)) throw errors.monitorNotFound;
  ex.json(monitorJson(monitor));
}

/** PATCH /v1/monitors/<key>: changes the settings the body names (Tocsin's; ntfy's prototype has no update). */
export async function updateMonitor(ctx: ServerContext, ex: Exchange, req: RequestInfo, [key]: string[]): Promise<void> {
  const body = readJson(ex);
  const { monitors, user } = await monitorRequest(ctx, req);
  const settings = settingsOf(ctx, await bodyOf(body), false);
  if (settings.alertTopic !== undefined) await ctx.access?.authorize(user, [settings.alertTopic], 'write');
  await mustBeInScope(monitors, user, key as string);
  ex.json(monitorJson(found(await monitors.store.update(user.name, key as string, settings))));
}

/** DELETE /v1/monitors/<key>: answers `{"ok":true}`, as ntfy. */
export async function deleteMonitor(ctx: ServerContext, ex: Exchange, req: RequestInfo, [key]: string[]): Promise<void> {
  const { monitors, user } = await monitorRequest(ctx, req);
  await mustBeInScope(monitors, user, key as string);
  if ((await monitors.store.remove(user.name, key as string)) === 0) throw errors.monitorNotFound;
  ex.json({ ok: true });
}

/**
 * GET|POST|PUT /v1/heartbeat/<key>: the ping. A monitor that was DOWN is UP again and its
 * recovery alert goes out (after the answer, as ntfy's goroutine).
 */
export async function heartbeat(ctx: ServerContext, ex: Exchange, req: RequestInfo, [key]: string[]): Promise<void> {
  const { monitors, user } = await monitorRequest(ctx, req);
  await mustBeInScope(monitors, user, key as string);
  const beat = await monitors.store.heartbeat(user.name, key as string, nowSeconds());
  if (beat === undefined) throw errors.monitorNotFound;
  const { monitor, previous } = beat;
  ex.json({ key: monitor.key, state: monitor.state, prev_state: previous, last_seen_at: monitor.lastSeenAt });
  if (previous === 'down') void monitors.alert(monitor, true);
}

/** 40066 without monitor-file, then who asks (40101 anonymous), one request from their bucket. */
async function monitorRequest(ctx: ServerContext, req: RequestInfo): Promise<{ monitors: Monitors; user: User }> {
  if (!ctx.monitors) throw errors.monitorsDisabled;
  const gate = new Gate(ctx, req, []);
  await runGuards([authenticate, requestRate('own')], gate);
  if (!gate.user) throw errors.unauthorized;
  return { monitors: ctx.monitors, user: gate.user };
}

/**
 * A topic-scoped token sees and acts on only the monitors whose alert topic its scopes let
 * it write: a CI job's token pings its own monitor, and cannot silence another by pinging it.
 */
function inScope(user: User, monitor: Monitor): boolean {
  return !user.scopes || scopesAllow(user.scopes, monitor.alertTopic, 'write');
}

/** 40402 for a scoped token and a monitor outside its scopes (as for another user's key). */
async function mustBeInScope(monitors: Monitors, user: User, key: string): Promise<void> {
  if (user.scopes && !inScope(user, found(await monitors.store.get(user.name, key)))) throw errors.monitorNotFound;
}

function found<T>(monitor: T | undefined): T {
  if (monitor === undefined) throw errors.monitorNotFound;
  return monitor;
}

/** Any body that is not a JSON object (or too large) is 40060, as ntfy's. */
async function bodyOf(body: Promise<Record<string, unknown>>): Promise<Record<string, unknown>> {
  return body.catch(() => {
    throw errors.monitorBodyInvalid;
  });
}

/**
 * The settings in a body, checked as ntfy checks them, in its order; a field of the wrong
 * JSON type is 40060 (Go's decoder fails). `all`: a new monitor, whose absent fields are
 * 0 or '' (so refused) but for the priority, 4 by default.
 */
function settingsOf(ctx: ServerContext, fields: Record<string, unknown>, all: boolean): Partial<MonitorSettings> {
  const integer = (name: string): number | undefined => {
    const value = fields[name];
    if (value === undefined || value === null) return all ? 0 : undefined;
    if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw errors.monitorBodyInvalid;
    return value;
  };
  const within = (value: number | undefined, { min, max }: { min: number; max: number }, error: Error): number | undefined => {
    if (value !== undefined && (value < min || value > max)) throw error;
    return value;
  };
  const period = within(integer('period'), monitorBounds.period, errors.monitorPeriodInvalid);
  const grace = within(integer('grace'), monitorBounds.grace, errors.monitorGraceInvalid);
  const topic = fields.alert_topic ?? (all ? '' : undefined);
  if (topic !== undefined && typeof topic !== 'string') throw errors.monitorBodyInvalid;
  if (topic !== undefined && (!namePattern.test(topic) || ctx.config.disallowedTopics.includes(topic))) throw errors.monitorAlertTopicInvalid;
  const given = fields.alert_priority;
  const priority = given === undefined || given === null ? (all ? defaultAlertPriority : undefined) : integer('alert_priority');
  within(priority, monitorBounds.priority, errors.monitorAlertPriorityInvalid);
  const settings: Partial<MonitorSettings> = {};
  if (period !== undefined) settings.period = period;
  if (grace !== undefined) settings.grace = grace;
  if (topic !== undefined) settings.alertTopic = topic;
  if (priority !== undefined) settings.alertPriority = priority;
  return settings;
}
