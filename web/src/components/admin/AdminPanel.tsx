import type { ComponentChildren } from 'preact';
import { t } from '../../lib/i18n.js';
import { everyone, type AdminUser } from './admin-data.js';

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

/** A chooser of one of the users (not everyone's `*`), empty until one is chosen. */
export function UserSelect({ name, users, value, onChange, required = false }: { name: string; users: AdminUser[]; value: string; onChange: (user: string) => void; required?: boolean }) {
  return (
    <select name={name} required={required} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
      <option value="">{t('admin.choose')}</option>
      {users
        .filter((u) => u.username !== everyone)
        .map((u) => (
          <option value={u.username}>{u.username}</option>
        ))}
    </select>
  );
}
