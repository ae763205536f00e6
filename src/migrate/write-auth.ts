import type { Grant } from '../model/access.js';
import type { Reservation, Tier } from '../model/account.js';
import type { AuthStore, ImportedUser, Membership, Token } from '../store/auth-store.js';
import type { Summary } from './summary.js';

/** What another server's auth file holds, as the import writes it. */
export interface AuthRecords {
  tiers: Tier[];
  users: ImportedUser[];
  /** Access entries by holder (a user's name, `*` for everyone, `*NAME` for a group), reservations left out. */
  grants: { user: string; grant: Grant }[];
  reservations: { user: string; reservation: Reservation }[];
  /** Named groups (Tocsin's own), made before the access entries their holders `*NAME` have. */
  groups: string[];
  /** Memberships the CLI or the API made; the others are made again by server.yml or at sign-in. */
  memberships: Membership[];
  tokens: { user: string; token: Token }[];
  phoneNumbers: { user: string; number: string }[];
  /** Records read but not to be imported, by the summary's kind: why, and how many. */
  leftOut: { kind: string; why: string; count: number }[];
}

const already = 'already there';

/**
 * Writes what another server's auth file holds into Tocsin's auth store, tiers first
 * (users name them), users before what belongs to them. A record Tocsin holds already (a
 * tier code, a user name, a group, a membership, an entry for a topic, a reservation, a
 * token, a phone number) is left as it is, so a run after an interrupt or a second run adds only what is
 * missing. Without `store` (a dry run) it only counts.
 */
export async function writeAuth(auth: AuthRecords, store: AuthStore | undefined, summary: Summary, now: number): Promise<void> {
  /** Writes one record of `kind` with `write`, which answers false for one already there; a dry run only counts. */
  const put = async (kind: string, write: (s: AuthStore) => Promise<boolean>, counted = false): Promise<void> => {
    if (!counted) summary.read(kind);
    if (!store) return summary.added(kind);
    if (await write(store)) summary.added(kind);
    else summary.skipped(kind, already);
  };
  const leaveOut = (kind: string): void => {
    for (const l of auth.leftOut.filter((o) => o.kind === kind && o.count > 0)) {
      summary.read(kind, l.count);
      summary.skipped(kind, l.why, l.count);
    }
  };
  summary.read('users', auth.users.length);
  leaveOut('users');
  for (const tier of auth.tiers) {
    await put('tiers', async (s) => {
      if (await s.tier(tier.code)) return false;
      await s.putTier(tier, false);
      return true;
    });
  }
  for (const user of auth.users) await put('users', (s) => s.importUser(user), true);
  // Read once: the source's groups and memberships are unique, so none is written twice here.
  const heldGroups = new Map((store ? await store.groups() : []).map((g) => [g.name, g.members]));
  for (const group of auth.groups) {
    await put('groups', async (s) => {
      if (heldGroups.has(group)) return false;
      await s.addGroup(group);
      return true;
    });
  }
  leaveOut('group members');
  for (const { group, user } of auth.memberships) {
    await put('group members', async (s) => {
      if (heldGroups.get(group)?.includes(user)) return false;
      await s.addMember(group, user);
      return true;
    });
  }
  leaveOut('access entries');
  for (const { user, grant } of auth.grants) {
    await put('access entries', async (s) => {
      if ((await s.grants(user)).some((g) => g.topic === grant.topic)) return false;
      await s.allowAccess(user, grant.topic, grant.permission);
      return true;
    });
  }
  for (const { user, reservation } of auth.reservations) {
    await put('reservations', async (s) => {
      if ((await s.reservations(user)).some((r) => r.topic === reservation.topic)) return false;
      await s.addReservation(user, reservation.topic, reservation.everyone);
      return true;
    });
  }
  leaveOut('tokens');
  for (const { user, token } of auth.tokens) {
    summary.read('tokens');
    // The source would have deleted it at its next housekeeping; Tocsin's would too.
    if (token.expires > 0 && token.expires < now) {
      summary.skipped('tokens', 'expired');
      continue;
    }
    await put('tokens', async (s) => {
      if ((await s.tokens(user)).some((t) => t.token === token.token)) return false;
      await s.addToken(user, token);
      return true;
    }, true);
  }
  for (const { user, number } of auth.phoneNumbers) {
    await put('phone numbers', async (s) => {
      if ((await s.phoneNumbers(user)).includes(number)) return false;
      await s.addPhoneNumber(user, number);
      return true;
    });
  }
}
