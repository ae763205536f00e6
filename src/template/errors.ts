/** Why a template failed: bad syntax, a construct ntfy refuses, a failing execution, or too much output. */
export type TemplateErrorCode = 'parse' | 'disallowed' | 'exec' | 'too-large';

/** Every failure of compile() and render(); the message carries Go's "template: NAME:LINE:COL: ..." prefix. */
export class TemplateError extends Error {
  constructor(
    readonly code: TemplateErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'TemplateError';
  }
}

/** Thrown by functions; the executor wraps it with the position and "error calling NAME". */
export class FuncError extends Error {}
