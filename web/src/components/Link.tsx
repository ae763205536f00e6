import type { ComponentChildren } from 'preact';
import { href, navigate } from '../lib/route.js';

/** Links that change the page without a reload (still real links: a middle click opens a tab). */
export function Link({ to, children, active }: { to: string; children: ComponentChildren; active?: boolean }) {
  return (
    <a
      href={href(to)}
      class={active ? 'active' : undefined}
      aria-current={active ? 'page' : undefined}
      onClick={(e) => {
        if (e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
        e.preventDefault();
        navigate(to);
      }}
    >
      {children}
    </a>
  );
}
