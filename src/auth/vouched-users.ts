import { randomBytes } from 'node:crypto';
import bcrypt from 'bcryptjs';
import { bcryptCost, type Role } from '../model/access.js';
import { AlreadyExists, type AuthStore } from '../store/auth-store.js';

/**
 * Adds a user whom someone else vouches for (a trusted proxy, an identity provider): their
 * password is random and known to nobody, so they come in only that way (or after a reset).
 * Answers false when another request or node made them first.
 */
export async function addVouchedUser(store: AuthStore, name: string, role: Role): Promise<boolean> {
  const hash = await bcrypt.hash(randomBytes(24).toString('base64url'), bcryptCost);
  try {
    await store.addUser(name, hash, role);
    return true;
  } catch (err) {
    if (err instanceof AlreadyExists) return false;
    throw err;
  }
}
