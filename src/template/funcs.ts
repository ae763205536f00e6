/** How template functions are declared: Go parameter types, so the executor can check arguments as reflect does. */
import { FuncError } from './errors.js';

/**
 * A parameter's Go type. 'value' is reflect.Value (the builtins that see raw values, even
 * "no value"); 'map' is map[string]interface {}; 'time' is time.Time.
 */
export type ParamType = 'any' | 'value' | 'string' | 'int' | 'float' | 'bool' | 'map' | 'time';

export interface GoFunc {
  readonly params: readonly ParamType[];
  /** Element type of a trailing ...T parameter. */
  readonly variadic?: ParamType;
  /** Throws FuncError (or any Error) for Go's error results and panics. */
  readonly fn: (...args: never[]) => unknown;
}

export const goTypeName: Record<ParamType, string> = {
  any: 'interface {}',
  value: 'reflect.Value',
  string: 'string',
  int: 'int',
  float: 'float64',
  bool: 'bool',
  map: 'map[string]interface {}',
  time: 'time.Time',
};

/** Declare a function: params, then the implementation; a trailing '...T' param makes it variadic. */
export function fn<A extends unknown[]>(params: string, impl: (...args: A) => unknown): GoFunc {
  const list = params.split(' ').filter((p) => p !== '');
  const last = list[list.length - 1];
  if (last?.startsWith('...')) {
    return { params: list.slice(0, -1) as ParamType[], variadic: last.slice(3) as ParamType, fn: impl as GoFunc['fn'] };
  }
  return { params: list as ParamType[], fn: impl as GoFunc['fn'] };
}

/** A Go error result or panic with this message. */
export const fail = (msg: string): never => {
  throw new FuncError(msg);
};
