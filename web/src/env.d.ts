/// <reference types="vite/client" />

declare module 'virtual:emoji-names' {
  /** GitHub's emoji short codes (gemoji) → the emoji; web/plugins/emoji-names.ts. */
  const names: Record<string, string>;
  export default names;
}
