/** The lines of a streamed body, split on "\n" as they arrive (a last line without one included). */
export async function* jsonLines(body: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (line.trim() !== '') yield line;
    }
  }
  buffer += decoder.decode();
  if (buffer.trim() !== '') yield buffer;
}
