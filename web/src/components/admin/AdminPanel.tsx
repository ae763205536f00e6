import type { ComponentChildren } from 'preact';
import { t } from '../../lib/i18n.js';

/** An admin section: a region named by its heading. */
export function AdminPanel({ heading, children }: { heading: string; children: ComponentChildren }) {
  return (
    <section class="panel" aria-label={heading}>
      <h3>{heading}</h3>
      {children}
    </section>
  );
}

/** A table of records, one row each; its last column holds a row's actions and is named for screen readers only. */
export function RecordTable({ columns, class: className = 'tokens', children }: { columns: string[]; class?: string; children: ComponentChildren }) {
  return (
    <table class={className}>
      <thead>
        <tr>
          {columns.map((column) => (
            <th scope="col">{column}</th>
          ))}
          <th scope="col">
            <span class="visually-hidden">{t('admin.actions')}</span>
          </th>
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}
