/** Go's "error parsing regexp: CODE: `ARG`". */
export class RegexpError extends Error {
  constructor(code: string, arg: string) {
    super(`error parsing regexp: ${code}: \`${arg}\``);
  }
}
