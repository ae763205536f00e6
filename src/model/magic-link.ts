import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { MagicLink, MagicLinkKind } from '../store/auth-store.js';

/**
 * Magic-link tokens (ntfy 2.25): 44 base64url characters, a 12-character selector that
 * finds the stored link, then a 32-character secret (192 random bits from the CSPRNG) of
 * which the store keeps only the SHA-256. A lookup costs one indexed read, and the secret
 * is compared in constant time, so neither the store's index nor the comparison tells a
 * guesser how close a guess came. The alphabet fits ntfy's landing paths, `[-_A-Za-z0-9]+`.
 */
const selectorLength = 12;
const secretLength = 32;
const tokenPattern = new RegExp(`^[-_A-Za-z0-9]{${selectorLength + secretLength}}$`);

/** The web app's pages a link opens (ntfy 2.25's paths), its token after each. */
export const landingPaths: Record<MagicLinkKind, string> = { 'email-verify': '/account/email/verify/', 'password-reset': '/account/password/reset/' };

/** How long a link works: a day to verify an address, an hour to reset a password (ntfy's). */
export const linkLifetimeSeconds: Record<MagicLinkKind, number> = { 'email-verify': 24 * 3600, 'password-reset': 3600 };

const digest = (secret: string): Buffer => createHash('sha256').update(secret).digest();

/** A new link for `username` (and the address to verify), expiring after its kind's lifetime: the token to mail, and what to store. */
export function newMagicLink(kind: MagicLinkKind, username: string, email: string, now: number): { token: string; link: MagicLink } {
  const selector = randomBytes((selectorLength * 3) / 4).toString('base64url');
  const secret = randomBytes((secretLength * 3) / 4).toString('base64url');
  const link: MagicLink = { selector, hash: digest(secret).toString('hex'), kind, username, email, expires: now + linkLifetimeSeconds[kind] };
  return { token: selector + secret, link };
}

/** The selector of a well-formed token; undefined for anything else (nothing to look up). */
export function selectorOf(token: string): string | undefined {
  return tokenPattern.test(token) ? token.slice(0, selectorLength) : undefined;
}

/** Whether `token` opens `link` now: its kind, unexpired, and its secret's digest equal in constant time. */
export function opens(token: string, link: MagicLink | undefined, kind: MagicLinkKind, now: number): link is MagicLink {
  if (!link || link.kind !== kind || link.expires < now) return false;
  const stored = Buffer.from(link.hash, 'hex');
  const given = digest(token.slice(selectorLength));
  return stored.length === given.length && timingSafeEqual(stored, given);
}
