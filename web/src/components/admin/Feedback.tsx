/** A section's outcome: the server's error, or the note of what was done. */
export function Feedback({ error, note }: { error: string; note: string }) {
  return (
    <>
      {error && <p class="error">{error}</p>}
      {note && <p class="note">{note}</p>}
    </>
  );
}
