import type { ComponentChildren } from 'preact';

/** One figure with its name; `note` says what it counts in a few words. */
export function Tile({ label, value, note }: { label: string; value: ComponentChildren; note?: string }) {
  return (
    <div class="tile" role="group" aria-label={label}>
      <span class="tile-label">{label}</span>
      <strong class="tile-value">{value}</strong>
      {note && <span class="tile-note">{note}</span>}
    </div>
  );
}
