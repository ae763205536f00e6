import { savedStore } from './saved.js';

/** The app's settings, kept in the browser (ntfy's web app settings: min priority, delete after, sound). */
export interface Settings {
  /** Messages below this priority are not shown nor notified (1 shows all). */
  minPriority: number;
  /** Seconds after which received messages are dropped from the list; 0 keeps them. */
  deleteAfter: number;
  sound: boolean;
  /** Characters of message JSON kept in this browser, the oldest dropped first (history.ts); unset: the default. */
  historySize?: number;
  theme: 'system' | 'light' | 'dark';
  /** Messages arrive by Web Push with no tab open (web-push.ts); this browser's choice, not the account's. */
  backgroundNotifications?: boolean;
  /** The language picked (i18n.ts); unset: the browser's. */
  language?: string;
}

export const settings = savedStore<Settings>('settings', { minPriority: 1, deleteAfter: 0, sound: true, theme: 'system' });
