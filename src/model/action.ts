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

/**
 * Bounds on what one button may carry, as ntfy has none (issue 33, findings 7 and 8): a
 * label is a button's few words, a body or copied value fits in a default message (4 KB),
 * and headers and extras are a request's few. URLs are bounded by maxUrlLength.
 */
export const actionLimits = { label: 256, text: 4096, entries: 20, key: 256 } as const;
