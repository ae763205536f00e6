import { everyone, type Role } from '../../model/access.js';
import type { Prefs } from '../../model/account.js';
import { withScopes } from '../../model/token-scope.js';
import { authSchemaVersion } from '../../store/sqlite/auth/schema.js';
import { toTier, type TierRow } from '../../store/tier-row.js';
import type { MembershipSource } from '../../store/auth-store.js';
import type { AuthRecords } from '../write-auth.js';
import { checkVersion, openSource } from './source-file.js';

interface UserRow {
  name: string;
  hash: string;
  role: Role;
  tier: string | null;
  sync_topic: string;
  prefs: string;
  created: number;
}

interface AccessRow {
  user: string;
  topic: string;
  read: number;
  write: number;
  owner: string | null;
  provisioned: number;
}

interface TokenRow {
  user: string;
  token: string;
  label: string;
  expires: number;
  last_access: number;
  last_origin: string;
  provisioned: number;
  scopes: string | null;
}

interface MemberRow {
  group: string;
  user: string;
  source: MembershipSource;
}

const provisioned = 'provisioned (server.yml makes them at the start)';

/**
 * Reads a Tocsin auth-file (the embedded store's SQLite file, any schema version up to
 * this Tocsin's) read-only. Its tables are read here rather than through SqliteAuthStore:
 * that one migrates the schema when it opens, and its port does not tell a user's
 * creation time, nor which access entries a reservation or server.yml made. A provisioned
 * user is imported like any other, with what the API gave it (settings, tokens, phone
 * numbers); the target's server.yml provisions it again at its start. Provisioned access
 * entries and tokens carry nothing but what server.yml says, so they are left to it.
 */
export function readTocsinAuth(file: string): AuthRecords {
  const db = openSource(file, {
    what: 'auth-file',
    tables: {
      tiers: ['code'],
      users: ['name', 'hash', 'role', 'tier', 'sync_topic', 'prefs', 'created'],
      access: ['user', 'topic', 'read', 'write', 'owner', 'provisioned'],
      tokens: ['token', 'user', 'label', 'expires', 'last_access', 'last_origin', 'provisioned'],
    },
    ntfyProbe: "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'user'",
  });
  try {
    checkVersion(file, 'auth-file', db.pragma('user_version', { simple: true }) as number, authSchemaVersion);
    const users = (db.prepare('SELECT name, hash, role, tier, sync_topic, prefs, created FROM users ORDER BY created, name').all() as UserRow[]).map((u) => ({
      name: u.name, hash: u.hash, role: u.role, ...(u.tier !== null && { tier: u.tier }), syncTopic: u.sync_topic, prefs: JSON.parse(u.prefs) as Prefs, created: u.created,
    }));
    const access = db.prepare('SELECT user, topic, read, write, owner, provisioned FROM access ORDER BY rowid').all() as AccessRow[];
    const permission = (a: AccessRow): { read: boolean; write: boolean } => ({ read: a.read === 1, write: a.write === 1 });
    const grants = access.filter((a) => a.owner === null && a.provisioned === 0).map((a) => ({ user: a.user, grant: { topic: a.topic, permission: permission(a) } }));
    // A reservation is the owner's own read-write entry and everyone's, both owned by them (sqlite/auth/reservations.ts).
    const reservations = access.filter((a) => a.owner === a.user).map((a) => {
      const others = access.find((o) => o.owner === a.owner && o.topic === a.topic && o.user === everyone);
      return { user: a.user, reservation: { topic: a.topic, everyone: others ? permission(others) : { read: false, write: false } } };
    });
    const hasTable = (name: string): boolean => db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
    // Token scopes came with version 4; they go along, or a scoped token would be imported with its user's full rights.
    const scopesColumn = hasTable('token_scopes') ? 'scopes FROM tokens LEFT JOIN token_scopes USING (token)' : 'NULL AS scopes FROM tokens';
    const tokenRows = db.prepare(`SELECT user, token, label, expires, last_access, last_origin, provisioned, ${scopesColumn} ORDER BY tokens.rowid`).all() as TokenRow[];
    const tokens = tokenRows.filter((t) => t.provisioned === 0).map((t) => ({
      user: t.user, token: withScopes({ token: t.token, label: t.label, expires: t.expires, lastAccess: t.last_access, lastOrigin: t.last_origin, scopes: t.scopes }),
    }));
    // Named groups came with version 5. A provisioned group comes as a plain one: its
    // entries made through the CLI or the API need it, and the target's server.yml makes it
    // provisioned again at its start (as a provisioned user). Only the memberships the CLI or
    // the API made come: server.yml makes its own again, and a proxy's or a single sign-on's
    // follow the identity at its next request or sign-in; as manual ones they never would.
    const groups = hasTable('groups') ? (db.prepare('SELECT name FROM groups ORDER BY name').pluck().all() as string[]) : [];
    const members = hasTable('group_members') ? (db.prepare('SELECT grp AS "group", user, source FROM group_members ORDER BY grp, user').all() as MemberRow[]) : [];
    const memberships = members.filter((m) => m.source === 'manual').map(({ group, user }) => ({ group, user }));
    // Phone numbers came with the auth-file's schema version 2.
    const phoneNumbers = hasTable('phones') ? (db.prepare('SELECT user, number FROM phones ORDER BY user, number').all() as { user: string; number: string }[]) : [];
    return {
      tiers: (db.prepare('SELECT * FROM tiers ORDER BY code').all() as TierRow[]).map(toTier),
      users,
      grants,
      reservations,
      groups,
      memberships,
      tokens,
      phoneNumbers,
      leftOut: [
        { kind: 'access entries', why: provisioned, count: access.filter((a) => a.provisioned === 1).length },
        { kind: 'tokens', why: provisioned, count: tokenRows.length - tokens.length },
        { kind: 'group members', why: provisioned, count: members.filter((m) => m.source === 'provisioned').length },
        { kind: 'group members', why: 'from a proxy header or single sign-on (made again at the next sign-in)', count: members.filter((m) => m.source === 'header').length },
      ],
    };
  } finally {
    db.close();
  }
}
