import { authenticated, everyone, groupHolder, topicPatternRegExp, type Permission } from '../model/access.js';
import type { AccessEntry, AuthStore, Membership } from '../store/auth-store.js';

/** One entry as the table matches it: its pattern's length decides between matches, then write over read. */
interface Rule {
  length: number;
  permission: Permission;
  /** A pattern with `*`; undefined for an exact topic (looked up by name). */
  pattern?: RegExp;
}

/** One user's entries (or everyone's): exact topics by name, patterns most specific first. */
interface UserRules {
  exact: Map<string, Rule>;
  patterns: Rule[];
}

/** Orders rules as the store does: the longer pattern first, then write before read. */
const moreSpecific = (a: Rule, b: Rule): number => b.length - a.length || Number(b.permission.write) - Number(a.permission.write);

/**
 * ntfy 2.24's auth-access-cache: topic access decided from one in-memory table of every
 * access entry instead of a store read per (user, topic). The store's own read cache
 * remembers answers per key, so every new topic name a request makes up is a database
 * read (on PostgreSQL or MongoDB a round trip); here it is a map lookup and a scan of the
 * user's and everyone's patterns.
 *
 * The table is the store's `accessEntries()`, which the store remembers until any change
 * — made here, by the CLI or on another node — and reads again after it, within its
 * `staleReadBoundMs` (1 ms for the auth-file, 1 s on PostgreSQL and MongoDB): so a revoked
 * entry stops counting within the same bound as without the table. The table is rebuilt
 * when the store hands over a different array, once per change.
 *
 * It decides as the store's `permission` does: the user's own entries (and their groups':
 * the logged-in users', `*authenticated`, and the named ones they are in (the store's
 * `memberships()`, remembered and rebuilt alike), ranked with them by length) before everyone's, then
 * the longest pattern, then write before read; `*` matches any run of characters,
 * every other character itself, case-sensitively (ntfy 2.24). The property test holds it
 * to the SQLite store's answers.
 */
export class AccessTable {
  private built: { from: readonly AccessEntry[]; rules: Map<string, UserRules> } | undefined;
  private members: { from: readonly Membership[]; holders: Map<string, string[]> } | undefined;

  constructor(private readonly store: Pick<AuthStore, 'accessEntries' | 'memberships'>) {}

  /** The permission of the entry that decides `topic` for `username`; undefined when none does. */
  async permission(username: string, topic: string): Promise<Permission | undefined> {
    const [entries, memberships] = await Promise.all([this.store.accessEntries(), this.store.memberships()]);
    if (this.built?.from !== entries) this.built = { from: entries, rules: rulesOf(entries) };
    if (this.members?.from !== memberships) this.members = { from: memberships, holders: holdersOf(memberships) };
    const rules = this.built.rules;
    if (username === everyone) return decide(rules.get(everyone), topic)?.permission;
    // The user's own and their groups' rank together by pattern, the user's own first at equal length.
    // Between groups, write before read at equal length.
    let group: Rule | undefined;
    for (const holder of [authenticated, ...(this.members.holders.get(username) ?? [])]) {
      const rule = decide(rules.get(holder), topic);
      if (rule && (!group || moreSpecific(rule, group) < 0)) group = rule;
    }
    const own = decide(rules.get(username), topic);
    const first = own && group ? (group.length > own.length ? group : own) : (own ?? group);
    return first?.permission ?? decide(rules.get(everyone), topic)?.permission;
  }
}

/** Each user's groups, as the holders of their entries (`*NAME`). */
function holdersOf(memberships: readonly Membership[]): Map<string, string[]> {
  const holders = new Map<string, string[]>();
  for (const { user, group } of memberships) holders.set(user, [...(holders.get(user) ?? []), groupHolder(group)]);
  return holders;
}

function rulesOf(entries: readonly AccessEntry[]): Map<string, UserRules> {
  const rules = new Map<string, UserRules>();
  for (const { user, topic, permission } of entries) {
    let own = rules.get(user);
    if (!own) rules.set(user, (own = { exact: new Map(), patterns: [] }));
    const rule: Rule = { length: topic.length, permission };
    if (topic.includes('*')) own.patterns.push({ ...rule, pattern: topicPatternRegExp(topic) });
    else own.exact.set(topic, rule); // one entry per user and topic: the store's key
  }
  for (const own of rules.values()) own.patterns.sort(moreSpecific);
  return rules;
}

/** The most specific of the exact entry and the patterns that match `topic`. */
function decide(rules: UserRules | undefined, topic: string): Rule | undefined {
  if (!rules) return undefined;
  const exact = rules.exact.get(topic);
  for (const rule of rules.patterns) {
    if (exact && moreSpecific(rule, exact) >= 0) break; // the patterns left rank below the exact entry
    if (rule.pattern?.test(topic)) return rule;
  }
  return exact;
}
