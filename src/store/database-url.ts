/** `database-url` without its credentials, for messages. */
export function redacted(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//…@');
}
