import { useState } from 'preact/hooks';
import { refreshAccount } from '../../lib/account.js';

/**
 * Runs an account change and then reloads the account, keeping the error to show (the
 * server's words) or the note of success; each section of the account page uses one.
 */
export function useAction(): { error: string; note: string; run: (change: () => Promise<unknown>, done?: string) => Promise<boolean> } {
  const [error, setError] = useState('');
  const [note, setNote] = useState('');
  const run = async (change: () => Promise<unknown>, done = ''): Promise<boolean> => {
    setError('');
    setNote('');
    try {
      await change();
      await refreshAccount();
      setNote(done);
      return true;
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
      return false;
    }
  };
  return { error, note, run };
}
