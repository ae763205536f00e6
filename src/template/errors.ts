/**
 * Why a template failed: bad syntax, a construct ntfy refuses, a failing execution, too much
 * output, or the render's deadline or work budget spent (budget.ts).
 */
export type TemplateErrorCode = 'parse' | 'disallowed' | 'exec' | 'too-large' | 'timeout';

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
