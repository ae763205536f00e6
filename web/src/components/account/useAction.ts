import { useState } from 'preact/hooks';
import { refreshAccount } from '../../lib/account.js';

/**
 * Runs an account change and then reloads the account (or what `reload` reloads: the admin
 * pages' users, groups and tiers), keeping the error to show (the server's words, or the
 * section's own for the codes it names) or the note of success; each section of the account
 * and admin pages uses one.
 */
export function useAction(reload: () => Promise<void> = refreshAccount): { error: string; note: string; setNote: (note: string) => void; run: (change: () => Promise<unknown>, done?: string, reason?: (err: unknown) => string | undefined) => Promise<boolean> } {
  const [error, setError] = useState('');
  const [note, setNote] = useState('');
  const run = async (change: () => Promise<unknown>, done = '', reason?: (err: unknown) => string | undefined): Promise<boolean> => {
    setError('');
    setNote('');
    try {
      await change();
      await reload();
      setNote(done);
      return true;
    } catch (err) {
      setError(reason?.(err) ?? (err instanceof Error ? err.message : String(err)));
      return false;
    }
  };
  return { error, note, setNote, run };
}
