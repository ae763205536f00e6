import type { ComponentChild } from 'preact';
import en from '../i18n/en.json';
import { Store } from './store.js';

/**
 * The app's words in the visitor's language: the catalogues under web/src/i18n/ (en.json the
 * source, each other language a file with its keys), `t` to look one up. Messages take
 * `{name}` parameters and ICU's plural form, `{count, plural, one {# day} other {# days}}`,
 * chosen through Intl.PluralRules: a page this size needs no more of ICU than that, and a
 * formatting library would add more to the first load than this whole module.
 */

/** The languages offered, each named in itself; adding one is a file in web/src/i18n/ and a line here. */
export const languages = { en: 'English', de: 'Deutsch', fr: 'Français', es: 'Español', zh: '简体中文', ar: 'العربية' } as const;
export type Language = keyof typeof languages;
export type MessageKey = keyof typeof en;
type Catalogue = Record<MessageKey, string>;

const rightToLeft = new Set<Language>(['ar']);
/** Languages whose catalogue is one written form, whatever the browser's variant: Chinese is Simplified, as in mainland China. */
const written: Partial<Record<Language, string>> = { zh: 'zh-CN' };

/** English is in the first load; the others are chunks of their own, fetched when chosen. */
const others = import.meta.glob<Catalogue>(['../i18n/*.json', '!../i18n/en.json'], { import: 'default' });

export const isLanguage = (code: string): code is Language => Object.hasOwn(languages, code);

/** The first of the browser's languages the app has (its primary subtag: de-AT is German, zh-CN Chinese), else English. */
export function browserLanguage(preferred: readonly string[] = navigator.languages): Language {
  for (const tag of preferred) {
    const primary = tag.split('-')[0]?.toLowerCase() ?? '';
    if (isLanguage(primary)) return primary;
  }
  return 'en';
}

interface Current {
  language: Language;
  /** The BCP 47 tag dates and numbers are formatted for: the browser's own variant of the language when it has one (en-GB, de-AT). */
  locale: string;
  catalogue: Catalogue;
  plurals: Intl.PluralRules;
}

const initial: Current = { language: 'en', locale: 'en', catalogue: en, plurals: new Intl.PluralRules('en') };

/** The language shown; components that read it re-render when it changes. */
export const language = new Store<Current>(initial);

/** The locale to format dates and numbers with, through Intl. */
export const locale = (): string => language.value.locale;

/** The language asked for last: a slower catalogue arriving after it is not shown. */
let requested: Language = 'en';

/** Shows `code` (loading its catalogue first unless it is English): <html lang dir> and every `t` after. */
export async function setLanguage(code: Language): Promise<void> {
  requested = code;
  const load = others[`../i18n/${code}.json`];
  const catalogue = load ? await load() : en;
  // Picked again before this one arrived: the later choice wins.
  if (requested !== code) return;
  const tag = written[code] ?? navigator.languages.find((l) => l.split('-')[0]?.toLowerCase() === code) ?? code;
  document.documentElement.lang = tag;
  document.documentElement.dir = rightToLeft.has(code) ? 'rtl' : 'ltr';
  language.set({ language: code, locale: tag, catalogue, plurals: new Intl.PluralRules(tag) });
}

/** The closing brace matching the opening one at `open`. */
function closing(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) return i;
  }
  throw new Error(`unbalanced braces in "${text}"`);
}

/** The branch of `{n, plural, =0 {…} one {…} other {…}}` for `n`: an exact match, else its plural category, else other. */
function pluralBranch(options: string, n: number, plurals: Intl.PluralRules): string {
  const branches = new Map<string, string>();
  let i = 0;
  while (i < options.length) {
    const open = options.indexOf('{', i);
    if (open < 0) break;
    const end = closing(options, open);
    branches.set(options.slice(i, open).trim(), options.slice(open + 1, end));
    i = end + 1;
  }
  return branches.get(`=${n}`) ?? branches.get(plurals.select(n)) ?? branches.get('other') ?? '';
}

type Param = ComponentChild;

/** The message's parts: its text, and the parameters in their places (numbers formatted for the locale, other values as they are). */
function parts(template: string, params: Record<string, Param>, current: Current): Param[] {
  const out: Param[] = [];
  let i = 0;
  while (i < template.length) {
    const open = template.indexOf('{', i);
    if (open < 0) break;
    out.push(template.slice(i, open));
    const end = closing(template, open);
    const [name = '', kind, ...rest] = template.slice(open + 1, end).split(',');
    const value = params[name.trim()];
    if (kind?.trim() === 'plural' && typeof value === 'number') {
      const number = new Intl.NumberFormat(current.locale).format(value);
      const branch = pluralBranch(rest.join(','), value, current.plurals);
      out.push(...parts(branch.replaceAll('#', number), params, current));
    } else out.push(typeof value === 'number' ? new Intl.NumberFormat(current.locale).format(value) : (value ?? ''));
    i = end + 1;
  }
  out.push(template.slice(i));
  return out.filter((p) => p !== '');
}

/** The message `key` as text in the language shown. */
export function t(key: MessageKey, params: Record<string, string | number> = {}): string {
  const current = language.value;
  return parts(current.catalogue[key], params, current).join('');
}

/** The message `key` with elements (links, times, code) in its parameters' places, for JSX. */
export function tParts(key: MessageKey, params: Record<string, ComponentChild>): ComponentChild[] {
  const current = language.value;
  return parts(current.catalogue[key], params, current);
}
