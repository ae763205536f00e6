import Database from 'better-sqlite3';
import { everyone, randomName, type Permission, type Role } from '../../model/access.js';
import type { Prefs, Tier } from '../../model/account.js';
import { nowSeconds } from '../../model/message.js';
import type { ImportedUser } from '../../store/auth-store.js';
import type { AuthRecords } from '../write-auth.js';
import { UnknownSchema } from './unknown-schema.js';

/**
 * Everything of an ntfy user.db the import carries over; phone numbers are not read (see
 * docs/operations.md, Moving from ntfy). Accounts deleted on ntfy, waiting there for their final removal, are left out.
 */
export interface NtfyAuth extends AuthRecords {
  version: number;
  /** ntfy's user ids (`u_...`, from version 2) to names: cached messages name their publisher by id. */
  userNames: Map<string, string>;
}

/**
 * ntfy's user.db schema versions (user/manager.go; auth/auth_sqlite.go before 2.0):
 * 1 has `user (user, pass, role)` and `access (user, topic, read, write)`; 2 (ntfy 2.0)
 * keys users by id (`u_...`) with tiers, tokens, prefs and reservations (`owner_user_id`);
 * 3 and 4 added Stripe and call columns the import has no use for; 5 escaped `_` in
 * `user_access.topic` as `\_`, since topics there are SQL LIKE patterns (`*` stored as `%`).
 */
export const newestAuthVersion = 5;

/** ntfy (Go) writes the bcrypt hash as a BLOB; Tocsin keeps it as text. */
const passText = 'CAST(pass AS TEXT) AS pass';

export function readNtfyAuth(file: string): NtfyAuth {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const version = authVersion(db, file);
    try {
      return version === 1 ? readVersion1(db) : readVersion2Up(db, version);
    } catch (err) {
      // A table or column its version has is missing: not a file ntfy made.
      if (err instanceof Database.SqliteError) throw new UnknownSchema(file, 'user', version, err.message);
      throw err;
    }
  } finally {
    db.close();
  }
}

function authVersion(db: Database.Database, file: string): number {
  const tables = new Set(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[]);
  const version = tables.has('schemaVersion') ? (db.prepare('SELECT version FROM schemaVersion WHERE id = 1').pluck().get() as number | undefined) : undefined;
  if (version === undefined) throw new UnknownSchema(file, 'schemaVersion', undefined, 'it is missing or empty: is this an ntfy auth-file?');
  if (version < 1 || version > newestAuthVersion) throw new UnknownSchema(file, 'user', version, `it reads ntfy's versions 1 to ${newestAuthVersion}`);
  return version;
}

interface AccessRow {
  user: string;
  topic: string;
  read: number;
  write: number;
}

function readVersion1(db: Database.Database): NtfyAuth {
  const users = (db.prepare(`SELECT user, ${passText}, role FROM user ORDER BY rowid`).all() as { user: string; pass: string; role: string }[])
    .filter((u) => u.user !== everyone)
    // Sync topics and creation times came with version 2: the user gets them now, as ntfy's migration gave them.
    .map((u): ImportedUser => ({ name: u.user, hash: u.pass, role: roleOf(u.role), syncTopic: randomName('st_', 16), prefs: {}, created: nowSeconds() }));
  const names = new Set([everyone, ...users.map((u) => u.name)]);
  const grants = (db.prepare('SELECT user, topic, read, write FROM access ORDER BY rowid').all() as AccessRow[]).filter((a) => names.has(a.user)).map((a) => ({
    user: a.user,
    grant: { topic: topicOf(a.topic, 1), permission: permissionOf(a) },
  }));
  return { version: 1, tiers: [], users, grants, reservations: [], groups: [], memberships: [], tokens: [], phoneNumbers: [], leftOut: [], userNames: new Map() };
}

interface TierRow {
  id: string;
  code: string;
  name: string;
  messages_limit: number;
  messages_expiry_duration: number;
  emails_limit: number;
  calls_limit: number;
  reservations_limit: number;
  attachment_file_size_limit: number;
  attachment_total_size_limit: number;
  attachment_expiry_duration: number;
  attachment_bandwidth_limit: number;
}

interface UserRow {
  id: string;
  user: string;
  pass: string;
  role: string;
  tier_id: string | null;
  prefs: string;
  sync_topic: string;
  created: number;
  deleted: number | null;
}

function readVersion2Up(db: Database.Database, version: number): NtfyAuth {
  // calls_limit came with version 4.
  const tierRows = db.prepare(`SELECT ${version >= 4 ? '*' : '*, 0 AS calls_limit'} FROM tier ORDER BY code`).all() as TierRow[];
  const tierCode = new Map(tierRows.map((t) => [t.id, t.code]));
  const rows = db.prepare(`SELECT id, user, ${passText}, role, tier_id, prefs, sync_topic, created, deleted FROM user WHERE role != 'anonymous' ORDER BY created, user`).all() as UserRow[];
  const live = rows.filter((u) => u.deleted === null);
  const names = new Map<string, string>([['u_everyone', everyone], ...live.map((u) => [u.id, u.user] as const)]);
  const users = live.map((u): ImportedUser => {
    const tier = u.tier_id === null ? undefined : tierCode.get(u.tier_id);
    return { name: u.user, hash: u.pass, role: roleOf(u.role), ...(tier && { tier }), syncTopic: u.sync_topic, prefs: JSON.parse(u.prefs) as Prefs, created: u.created };
  });
  const access = db.prepare('SELECT user_id AS user, topic, read, write, owner_user_id AS owner FROM user_access ORDER BY rowid').all() as (AccessRow & { owner: string | null })[];
  const grants = access.flatMap((a) => {
    const user = names.get(a.user);
    return a.owner === null && user !== undefined ? [{ user, grant: { topic: topicOf(a.topic, version), permission: permissionOf(a) } }] : [];
  });
  // A reservation is the owner's own read-write row and everyone's row, both owned by them.
  const reservations = access.flatMap((a) => {
    const user = names.get(a.user);
    if (a.owner === null || a.user !== a.owner || user === undefined) return [];
    const others = access.find((o) => o.owner === a.owner && o.topic === a.topic && o.user === 'u_everyone');
    return [{ user, reservation: { topic: topicOf(a.topic, version), everyone: others ? permissionOf(others) : { read: false, write: false } } }];
  });
  const tokenRows = db.prepare('SELECT user_id, token, label, last_access, last_origin, expires FROM user_token ORDER BY rowid').all() as {
    user_id: string; token: string; label: string; last_access: number; last_origin: string; expires: number;
  }[];
  const tokens = tokenRows.flatMap((t) => {
    const user = names.get(t.user_id);
    return user === undefined ? [] : [{ user, token: { token: t.token, label: t.label, expires: t.expires, lastAccess: t.last_access, lastOrigin: t.last_origin } }];
  });
  const leftOut = [{ kind: 'users', why: 'deleted accounts', count: rows.length - live.length }];
  return { version, tiers: tierRows.map(toTier), users, grants, reservations, groups: [], memberships: [], tokens, phoneNumbers: [], leftOut, userNames: names };
}

function toTier(t: TierRow): Tier {
  return {
    code: t.code,
    name: t.name,
    messageLimit: t.messages_limit,
    messageExpiryDuration: t.messages_expiry_duration,
    emailLimit: t.emails_limit,
    callLimit: t.calls_limit,
    reservationLimit: t.reservations_limit,
    attachmentFileSizeLimit: t.attachment_file_size_limit,
    attachmentTotalSizeLimit: t.attachment_total_size_limit,
    attachmentExpiryDuration: t.attachment_expiry_duration,
    attachmentBandwidthLimit: t.attachment_bandwidth_limit,
  };
}

function roleOf(role: string): Role {
  return role === 'admin' ? 'admin' : 'user';
}

function permissionOf(a: { read: number; write: number }): Permission {
  return { read: a.read === 1, write: a.write === 1 };
}

/** ntfy's fromSQLWildcard: `%` back to `*`, and (from version 5) `\_` back to `_`. */
function topicOf(stored: string, version: number): string {
  const unescaped = version >= 5 ? stored.replaceAll('\\_', '_') : stored;
  return unescaped.replaceAll('%', '*');
}
