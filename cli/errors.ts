/** An error the CLI reports as one line on stderr, exiting with `exitCode` (1: it failed). */
export class CliError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode = 1) {
    super(message);
    this.exitCode = exitCode;
  }
}

/** A failure that may pass: edgecrawl not reached, or a 5xx. */
export class TransientError extends CliError {}

/** A command line the CLI cannot read: reported with the command's usage, exit code 2. */
export class UsageError extends CliError {
  readonly usage: string | undefined;
  constructor(message: string, usage?: string) {
    super(message, 2);
    this.usage = usage;
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
