import type { Action } from './message.js';
import { authHeadersFor } from './server-users.js';
import { serverOf, topicUrlOf, type Located } from './servers.js';
import { t } from './i18n.js';

/** What the publish dialog sends, to the topic on its server (the app's own without `baseUrl`); every field but the topic may be empty. */
export interface Draft extends Located {
  message: string;
  title: string;
  tags: string;
  priority: number;
  delay: string;
  click: string;
  email: string;
  markdown: boolean;
  attachUrl: string;
  file: File | undefined;
  actions: Action[];
}

/**
 * A publish as ntfy's web app sends it: PUT to the topic URL. The options go as query
 * parameters (ntfy reads each header from the query too), since header values must be
 * Latin-1 and a title may not be; the body is the message, or the attached file with the
 * message in `message=`.
 */
export function publishUrl(draft: Draft): string {
  const params = new URLSearchParams();
  const set = (name: string, value: string): void => {
    if (value.trim()) params.set(name, value.trim());
  };
  set('title', draft.title);
  set('tags', draft.tags);
  if (draft.priority !== 3) params.set('priority', String(draft.priority));
  set('delay', draft.delay);
  set('click', draft.click);
  set('email', draft.email);
  if (!draft.file) set('attach', draft.attachUrl);
  if (draft.markdown) params.set('markdown', 'yes');
  if (draft.actions.length > 0) params.set('actions', JSON.stringify(draft.actions));
  if (draft.file) {
    params.set('filename', draft.file.name);
    set('message', draft.message);
  }
  const query = params.toString();
  return `${topicUrlOf(draft)}${query ? `?${query}` : ''}`;
}

/**
 * Sends the draft with XMLHttpRequest, whose upload events (fetch has none) tell the
 * attachment's progress, as a fraction. Resolves with the published message's id.
 */
export function publish(draft: Draft, onProgress: (fraction: number) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', publishUrl(draft));
    for (const [name, value] of Object.entries(authHeadersFor(serverOf(draft)))) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      const body = JSON.parse(xhr.responseText || '{}') as { id?: string; error?: string; code?: number };
      if (xhr.status === 200 && body.id) resolve(body.id);
      else reject(new Error(body.error ? `${body.error} (${body.code})` : `HTTP ${xhr.status}`));
    };
    xhr.onerror = () => reject(new Error(t('publish.unreachable')));
    xhr.send(draft.file ?? draft.message);
  });
}
