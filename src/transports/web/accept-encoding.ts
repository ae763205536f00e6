/** The encodings Tocsin pre-compresses its web files in, best first. */
export type WebEncoding = 'br' | 'gzip';
const preferred: readonly WebEncoding[] = ['br', 'gzip'];

/**
 * The best encoding an Accept-Encoding header allows (RFC 9110 §12.5.3): a coding named
 * with q=0 is refused, `*` stands for every coding not named, no header means none.
 * The client's weights only decide acceptance: brotli is smaller, so it wins whenever allowed.
 */
export function acceptedEncodings(header: string | undefined): WebEncoding[] {
  if (!header) return [];
  const weights = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    weights.set(name, q === undefined ? 1 : Number(q.slice(2)) || 0);
  }
  return preferred.filter((coding) => (weights.get(coding) ?? weights.get('*') ?? 0) > 0);
}
