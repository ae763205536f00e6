/** Sprig's urlParse and urlJoin over a subset of Go's net/url (see FUNCTIONS.md). */
import { fail, fn, type GoFunc } from '../funcs.js';
import { percentEncoder } from '../percent.js';
import { goKind, type GoMap } from '../values.js';

const unescape = (s: string): string => {
  try {
    return decodeURIComponent(s);
  } catch {
    return fail(`unable to parse url: invalid URL escape in ${JSON.stringify(s)}`);
  }
};

/** Go's shouldEscape for paths and fragments: unreserved characters and a few sub-delims stay. */
const escapePath = percentEncoder(/[A-Za-z0-9\-_.~$&+,/:;=@]/);
const escapeFragment = percentEncoder(/[A-Za-z0-9\-_.~$&+,/:;=@!()*?]/);

function urlParse(raw: string): GoMap {
  let rest = raw;
  let fragment = '';
  const hash = rest.indexOf('#');
  if (hash >= 0) {
    fragment = unescape(rest.slice(hash + 1));
    rest = rest.slice(0, hash);
  }
  let scheme = '';
  const m = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(rest);
  if (m !== null) {
    scheme = (m[1] ?? '').toLowerCase();
    rest = rest.slice(m[0].length);
  } else if (/^[^/?]*:/.test(rest)) fail('unable to parse url: first path segment in URL cannot contain colon');
  let query = '';
  const q = rest.indexOf('?');
  if (q >= 0) {
    query = rest.slice(q + 1);
    rest = rest.slice(0, q);
  }
  let opaque = '';
  let host = '';
  let userinfo = '';
  if (scheme !== '' && !rest.startsWith('/')) {
    opaque = rest;
    rest = '';
  } else if (rest.startsWith('//')) {
    const slash = rest.indexOf('/', 2);
    let authority = slash < 0 ? rest.slice(2) : rest.slice(2, slash);
    rest = slash < 0 ? '' : rest.slice(slash);
    const at = authority.lastIndexOf('@');
    if (at >= 0) {
      userinfo = authority.slice(0, at);
      authority = authority.slice(at + 1);
      if (!validUserinfo(userinfo)) fail(`unable to parse url: parse ${JSON.stringify(raw)}: net/url: invalid userinfo`);
    }
    const port = /^(\[.*\]|[^\]]*?)(:.*)?$/.exec(authority)?.[2];
    if (port !== undefined && !/^:\d*$/.test(port)) fail(`unable to parse url: parse ${JSON.stringify(raw)}: invalid port ${JSON.stringify(port)} after host`);
    host = unescape(authority);
  }
  const hostname = host.startsWith('[') ? host.slice(1, host.indexOf(']')) : host.replace(/:\d*$/, '');
  return { scheme, host, hostname, path: unescape(rest), query, opaque, fragment, userinfo };
}

/** net/url's validUserinfo: unreserved, sub-delims, ':', '%' and '@'. */
const validUserinfo = (s: string): boolean => /^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/.test(s);

function field(d: GoMap, key: string): string {
  if (!Object.hasOwn(d, key)) return '';
  const v = d[key];
  if (typeof v !== 'string') fail(`unable to parse ${key} key, must be of type string, but ${goKind(v)} found`);
  return v as string;
}

function urlJoin(d: GoMap | null): string {
  const u = d ?? {};
  // Read in Sprig's order, so the first non-string key named in an error is the same.
  const scheme = field(u, 'scheme');
  const host = field(u, 'host');
  const path = field(u, 'path');
  const query = field(u, 'query');
  const opaque = field(u, 'opaque');
  const fragment = field(u, 'fragment');
  const userinfo = field(u, 'userinfo');
  let out = scheme !== '' ? scheme + ':' : '';
  if (opaque !== '') out += opaque;
  else {
    if (scheme !== '' || host !== '' || userinfo !== '') {
      if (host !== '' || path !== '' || userinfo !== '') out += '//';
      if (userinfo !== '') {
        if (!validUserinfo(userinfo)) fail(`unable to parse userinfo in dict: parse ${JSON.stringify(`proto://${userinfo}@host`)}: net/url: invalid userinfo`);
        out += userinfo + '@';
      }
      out += host;
    }
    const p = escapePath(path);
    if (p !== '' && p[0] !== '/' && host !== '') out += '/';
    // RFC 3986 4.2: a relative path whose first segment has a colon would read as a scheme.
    if (out === '' && /^[^/]*:/.test(p)) out += './';
    out += p;
  }
  if (query !== '') out += '?' + query;
  if (fragment !== '') out += '#' + escapeFragment(fragment);
  return out;
}

export const url: Record<string, GoFunc> = {
  urlParse: fn('string', urlParse),
  urlJoin: fn('map', urlJoin),
};
