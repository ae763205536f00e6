/** A message as the server sends it (ntfy's JSON; src/model/message.ts). */
export interface Message {
  id: string;
  time: number;
  expires?: number;
  event: string;
  topic: string;
  sequence_id?: string;
  title?: string;
  message?: string;
  priority?: number;
  tags?: string[];
  click?: string;
  icon?: string;
  actions?: Action[];
  attachment?: Attachment;
  content_type?: string;
  /** Set by the web app, never by the server: received while its topic was not on screen, and not marked read since. */
  unread?: boolean;
}

export interface Action {
  id?: string;
  action: 'view' | 'http' | 'broadcast';
  label: string;
  url?: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  clear?: boolean;
}

export interface Attachment {
  name: string;
  type?: string;
  size?: number;
  expires?: number;
  url: string;
}

const imageName = /\.(png|jpe?g|gif|webp|avif|svg)$/i;

/** ntfy's isImage: the type when given, the name otherwise. */
export function isImage(attachment: Attachment): boolean {
  return attachment.type ? attachment.type.startsWith('image/') : imageName.test(attachment.name) || imageName.test(attachment.url);
}

export const isMarkdown = (m: Message): boolean => m.content_type === 'text/markdown';
