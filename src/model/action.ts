/** An action button, as ntfy's clients read it (docs/publish.md "Action buttons"). */
export type ActionType = 'view' | 'broadcast' | 'http' | 'copy';

export interface Action {
  /** Random id the clients use to tell buttons apart. */
  id: string;
  action: ActionType;
  label: string;
  /** Clear the notification after the action succeeded. Always present in ntfy's JSON. */
  clear: boolean;
  /** view, http */
  url?: string;
  /** http; POST when absent */
  method?: string;
  /** http */
  headers?: Record<string, string>;
  /** http */
  body?: string;
  /** broadcast */
  intent?: string;
  /** broadcast */
  extras?: Record<string, string>;
  /** copy: the text put on the clipboard */
  value?: string;
}

/** ntfy allows at most three buttons per message (Android's notification limit). */
export const maxActions = 3;
