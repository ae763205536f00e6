/** Go's encoding/json Marshal, MarshalIndent and Encoder (for Sprig's toJSON family). */
import { append, checkLength } from '../bounds.js';
import { SCAN_STEP, scanned, spend } from '../budget.js';
import { fail } from '../funcs.js';
import { formatFloat } from '../floatfmt.js';
import { formatTime } from '../timefmt.js';
import { GoTime, Int64, sortedKeys, isMap } from '../values.js';

function jsonString(s: string, escapeHTML: boolean): string {
  let out = '"';
  let n = 0;
  for (const ch of s) {
    // \u escapes make six characters of one: the length is checked as it grows, not after.
    if (++n % SCAN_STEP === 0) {
      scanned();
      checkLength(out.length);
    }
    const c = ch.codePointAt(0) ?? 0;
    if (ch === '"' || ch === '\\') out += '\\' + ch;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\b') out += '\\b';
    else if (ch === '\f') out += '\\f';
    else if (c < 0x20 || (escapeHTML && (ch === '<' || ch === '>' || ch === '&')) || c === 0x2028 || c === 0x2029) {
      out += '\\u' + c.toString(16).padStart(4, '0');
    } else if (c >= 0xd800 && c < 0xe000) out += '\\ufffd';
    else out += ch;
  }
  return out + '"';
}

/** encoding/json's float format: 'f' unless tiny or huge, and e-07 written as e-7. */
function jsonFloat(f: number): string {
  if (!Number.isFinite(f)) fail(`json: unsupported value: ${formatFloat(f, 'g', -1)}`);
  const abs = Math.abs(f);
  if (abs !== 0 && (abs < 1e-6 || abs >= 1e21)) return formatFloat(f, 'e', -1).replace(/e([+-])0(\d)$/, 'e$1$2');
  return formatFloat(f, 'f', -1);
}

/** JSON text of a value; indent '' means compact. Each value visited is charged to the render (budget.ts). */
export function marshal(v: unknown, escapeHTML: boolean, indent = '', prefix = ''): string {
  spend(1);
  if (v === null || v === undefined) return 'null';
  switch (typeof v) {
    case 'string':
      return jsonString(v, escapeHTML);
    case 'number':
      return jsonFloat(v);
    case 'bigint':
      return v.toString();
    case 'boolean':
      return String(v);
  }
  if (v instanceof Int64) return v.v.toString();
  if (v instanceof GoTime) return jsonString(formatTime(v, '2006-01-02T15:04:05.999999999Z07:00'), escapeHTML);
  const inner = prefix + indent;
  const nl = indent === '' ? '' : '\n';
  const colon = indent === '' ? ':' : ': ';
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    let out = '[' + nl;
    for (let i = 0; i < v.length; i++) out = append(out, (i > 0 ? ',' + nl : '') + inner + marshal(v[i], escapeHTML, indent, inner));
    return out + nl + prefix + ']';
  }
  if (isMap(v)) {
    const keys = sortedKeys(v);
    if (keys.length === 0) return '{}';
    let out = '{' + nl;
    keys.forEach((k, i) => {
      out = append(out, (i > 0 ? ',' + nl : '') + inner + jsonString(k, escapeHTML) + colon);
      out = append(out, marshal(v[k], escapeHTML, indent, inner));
    });
    return out + nl + prefix + '}';
  }
  return 'null';
}
