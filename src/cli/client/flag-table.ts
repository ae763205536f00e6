import { Option, type Command } from 'commander';
import { camel } from '../flags.js';
import { ClientError } from './client-error.js';

/**
 * One flag of `publish`/`subscribe` as ntfy's urfave/cli declares it: a name, aliases
 * (single letters become the short flag, the rest hidden long flags), the environment
 * variable that sets it when no flag does, and its kind.
 */
export interface FlagSpec {
  name: string;
  aliases?: string[];
  env?: string;
  kind: 'string' | 'bool' | 'int';
  usage: string;
}

export type FlagValues = Record<string, string | boolean | number | undefined>;

/** Adds every spec to `command`: the name with its one-letter alias shown, the other aliases hidden. */
export function addFlags(command: Command, specs: readonly FlagSpec[]): Command {
  for (const spec of specs) {
    const aliases = spec.aliases ?? [];
    const short = aliases.find((a) => a.length === 1);
    const value = spec.kind === 'bool' ? '' : ` <${spec.kind === 'int' ? 'n' : 'value'}>`;
    const env = spec.env ? ` (env ${spec.env})` : '';
    command.addOption(plain(new Option(`${short ? `-${short}, ` : ''}--${spec.name}${value}`, spec.usage + env)));
    for (const alias of aliases.filter((a) => a.length > 1)) command.addOption(plain(new Option(`--${alias}${value}`).hideHelp()));
  }
  return command;
}

/** `--no-cache` is ntfy's flag itself, not commander's negation of a `--cache`. */
function plain(option: Option): Option {
  option.negate = false;
  return option;
}

/**
 * Each spec's value: its flag, else the first of its aliases given, else its environment
 * variable (read as urfave/cli reads it: Go's strconv rules for booleans and integers).
 */
export function readFlags(options: Record<string, unknown>, specs: readonly FlagSpec[], env: NodeJS.ProcessEnv): FlagValues {
  const values: FlagValues = {};
  for (const spec of specs) {
    const given = [spec.name, ...(spec.aliases ?? []).filter((a) => a.length > 1)].map((n) => options[camel(n)]).find((v) => v !== undefined);
    const fromEnv = spec.env ? env[spec.env] : undefined;
    if (given !== undefined) values[spec.name] = spec.kind === 'int' ? parseGoInt(String(given), `flag --${spec.name}`) : (given as string | boolean);
    else if (fromEnv !== undefined && fromEnv !== '') values[spec.name] = fromEnvironment(spec, fromEnv);
  }
  return values;
}

function fromEnvironment(spec: FlagSpec, value: string): string | boolean | number {
  const where = `env var ${JSON.stringify(spec.env)} for flag ${spec.name}`;
  if (spec.kind === 'bool') return parseGoBool(value, where);
  if (spec.kind === 'int') return parseGoInt(value, where);
  return value;
}

const goTrue = ['1', 't', 'T', 'TRUE', 'true', 'True'];
const goFalse = ['0', 'f', 'F', 'FALSE', 'false', 'False'];

/** Go's strconv.ParseBool, which urfave/cli applies to a boolean flag's environment variable. */
export function parseGoBool(value: string, where: string): boolean {
  if (goTrue.includes(value)) return true;
  if (goFalse.includes(value)) return false;
  throw new ClientError(`could not parse ${JSON.stringify(value)} as bool value from ${where}`);
}

/** A decimal integer, as Go's strconv.ParseInt(value, 0, 64) reads the usual ones. */
export function parseGoInt(value: string, where: string): number {
  if (!/^[+-]?\d+$/.test(value.trim())) throw new ClientError(`could not parse ${JSON.stringify(value)} as int value from ${where}`);
  return Number(value.trim());
}
