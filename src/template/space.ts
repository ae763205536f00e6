/**
 * Go's unicode.IsSpace set, which strings.TrimSpace trims: JS's trim() differs in two code
 * points, trimming U+FEFF (a byte-order mark, not space to Go) and keeping U+0085 (NEL).
 */
const goSpace = '\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const edges = new RegExp(`^[${goSpace}]+|[${goSpace}]+$`, 'g');

/** Go's strings.TrimSpace. */
export const goTrimSpace = (s: string): string => s.replace(edges, '');
