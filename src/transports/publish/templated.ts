import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { errors } from '../../model/errors.js';
import type { Message } from '../../model/message.js';
import { parsePriority } from '../../model/priority.js';
import { compileCached } from '../../template/cache.js';
import { TemplateError, goTrimSpace } from '../../template/index.js';
import type { Body } from '../http/body.js';
import type { TemplateRequest } from './parse.js';

/** ntfy's jsonBodyBytesLimit: a templated publish may send this much JSON even past message-size-limit. */
export const templateBodyLimit = 32 * 1024;
/** ntfy's DoS guards: template size, output size and running time (the engine adds a work budget). */
const maxTemplateBytes = 32 * 1024;
const maxOutputBytes = 1024 * 1024;
const timeoutMs = 100;

const templateName = /^[-_A-Za-z0-9]+$/;
/** The built-in templates (github, grafana, alertmanager), shipped in the repository's templates/. */
const builtinDir = fileURLToPath(new URL('../../../../templates/', import.meta.url));

interface TemplateFile {
  title?: string;
  message?: string;
  priority?: string;
}

/**
 * ntfy's handleBodyAsTemplatedTextMessage: renders the request's templates — a template
 * file's, or the message, title and priority parameters — against the JSON body, into the
 * message. Errors are ntfy's: 41303 body too long, 40047/40048 template file missing or
 * invalid, 40042 body not JSON, 40043 parse, 40044 disallowed, 40045 execution, 40055
 * execution past its deadline or work budget, 40041 result too long, 40007 a rendered
 * priority that is none. A rendered title past message-title-size-limit is 40041 too, not
 * 40057: the sent title passed, and 40041 is the code ntfy clients know for what the
 * rendering made too long.
 */
export async function renderTemplated(message: Message, request: TemplateRequest, body: Body, opts: { templateDir: string; messageSizeLimit: number; messageTitleSizeLimit: number }): Promise<void> {
  if (body.truncated) throw errors.entityTooLargeJsonBody;
  const source = goTrimSpace(body.bytes.toString('utf8')); // Go's TrimSpace: a leading byte-order mark stays, so the JSON is invalid (40042)
  const templates = request.name === undefined ? inline(request) : await templateFile(opts.templateDir, request.name);
  const label = request.name ?? 'inline';
  let data: unknown;
  const render = (field: keyof TemplateFile, text: string): string => {
    data ??= parseJson(source);
    return renderOne(`${label} (${field})`, text, data);
  };
  if (templates.message !== undefined) setText(message, 'message', render('message', templates.message));
  if (templates.title !== undefined) setText(message, 'title', render('title', templates.title));
  if (templates.priority !== undefined) {
    // As ntfy, the rendered priority replaces any given one, also when it renders none.
    const priority = parsePriority(render('priority', templates.priority));
    if (priority !== 0) message.priority = priority;
    else delete message.priority;
  }
  if (Buffer.byteLength(message.message ?? '') > opts.messageSizeLimit || Buffer.byteLength(message.title ?? '') > opts.messageTitleSizeLimit) throw errors.templateResultTooLarge;
  if (!message.message) message.message = 'triggered';
}

/** `Template: yes`: the message and title parameters, and the priority when one is given. */
function inline(request: TemplateRequest): TemplateFile {
  return { message: request.message, title: request.title, ...(request.priority !== '' && { priority: request.priority }) };
}

/** NAME.yml from template-dir, else the built-in of that name. */
async function templateFile(dir: string, name: string): Promise<TemplateFile> {
  if (!templateName.test(name)) throw errors.templateFileNotFound;
  // Read on each publish, as ntfy, so an edited file applies at once; parsed once per text.
  const own = dir === '' ? '' : await readFile(join(dir, `${name}.yml`), 'utf8').catch(() => '');
  const text = own !== '' ? own : ((await builtins()).get(name) ?? '');
  if (text === '') throw errors.templateFileNotFound;
  let file = parsedFiles.get(text);
  if (!file) {
    file = parseTemplateFile(text);
    if (parsedFiles.size >= maxParsedFiles) parsedFiles.delete(parsedFiles.keys().next().value as string);
    parsedFiles.set(text, file);
  }
  return file;
}

const maxParsedFiles = 100;
const parsedFiles = new Map<string, TemplateFile>();
let builtinTexts: Promise<Map<string, string>> | undefined;

/** The built-in templates by name, read once: they ship with the server. */
function builtins(): Promise<Map<string, string>> {
  builtinTexts ??= readdir(builtinDir).then(async (names) => {
    const files = names.filter((n) => n.endsWith('.yml'));
    return new Map(await Promise.all(files.map(async (n) => [n.slice(0, -4), await readFile(join(builtinDir, n), 'utf8')] as const)));
  });
  return builtinTexts;
}

/** The title, message and priority of a template file (40048 unless a YAML map of scalars). */
function parseTemplateFile(text: string): TemplateFile {
  let parsed: unknown;
  try {
    parsed = parseYaml(text);
  } catch {
    throw errors.templateFileInvalid;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw errors.templateFileInvalid;
  const fields = parsed as Record<string, unknown>;
  const file: TemplateFile = {};
  for (const key of ['title', 'message', 'priority'] as const) {
    const value = fields[key];
    if (value === undefined || value === null) continue;
    if (typeof value === 'object') throw errors.templateFileInvalid;
    file[key] = String(value); // as yaml.v2 reads a scalar into a string
  }
  return file;
}

/** A number too large for a float64 (JSON.parse makes it Infinity); only such long numbers are checked for. */
const hugeNumber = /\d[eE]\+?\d{3}|\d{309}/;
const finite = (_key: string, value: unknown): unknown => {
  if (typeof value === 'number' && !Number.isFinite(value)) throw errors.templateNotJson;
  return value;
};

/** The body as Go's json.Unmarshal into `any` reads it: numbers are float64, and one out of range is an error. */
function parseJson(source: string): unknown {
  try {
    return JSON.parse(source, hugeNumber.test(source) ? finite : undefined) as unknown;
  } catch {
    throw errors.templateNotJson;
  }
}

/**
 * One template, compiled once per text. As ntfy 2.14+ (renderTemplate): "\n" left in the
 * output (typed outside the actions, or in the data) becomes a newline, and the result is
 * trimmed with Go's TrimSpace, so a range ending each line in "\n" leaves no trailing newline
 * (ntfy 2.13 kept it).
 */
function renderOne(name: string, text: string, data: unknown): string {
  if (Buffer.byteLength(text) > maxTemplateBytes) throw errors.templateTooLarge;
  try {
    return goTrimSpace(compileCached(text, name).render(data, { maxOutput: maxOutputBytes, timeoutMs }).replaceAll('\\n', '\n'));
  } catch (err) {
    if (!(err instanceof TemplateError)) throw err;
    if (err.code === 'parse') throw errors.templateInvalid.wrap(err.message);
    if (err.code === 'disallowed') throw errors.templateDisallowed;
    if (err.code === 'timeout') throw errors.templateExecuteTimeout;
    throw errors.templateExecuteFailed.wrap(`template ${name}: ${err.message}`);
  }
}

function setText(message: Message, field: 'message' | 'title', value: string): void {
  if (value === '') delete message[field];
  else message[field] = value;
}
