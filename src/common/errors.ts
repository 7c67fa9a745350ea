// Errors a user can cause. The CLI prints `message` as one line (no stack) and exits with `exitCode`.
// SPEC §7: 2 = invalid config or usage, 3 = environment or SUT failure.

export const EXIT_PASS = 0;
export const EXIT_REGRESSION = 1;
export const EXIT_USAGE = 2;
export const EXIT_ENVIRONMENT = 3;
/** an internal error (a bug in perf-gate): fails the check like a regression, with "internal error" */
export const EXIT_INTERNAL = 1;

export class UserError extends Error {
  constructor(
    message: string,
    readonly exitCode: typeof EXIT_USAGE | typeof EXIT_ENVIRONMENT,
    /** Extra lines shown after the one-line reason (for example the SUT's last log lines). */
    readonly details: string[] = [],
  ) {
    super(message);
    this.name = 'UserError';
  }
}

export const usageError = (message: string, details?: string[]) => new UserError(message, EXIT_USAGE, details);
export const environmentError = (message: string, details?: string[]) =>
  new UserError(message, EXIT_ENVIRONMENT, details);
