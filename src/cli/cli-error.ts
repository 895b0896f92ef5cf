/**
 * How the command ends on an error: a one-line message on stderr and an exit
 * status, never a stack trace.
 */

/** Exit statuses shared by every command. */
export const EXIT = {
  ok: 0,
  failure: 1,
  /** A command's own "incompatible"/"failed" verdict, as the real dbsync tools use it. */
  incompatible: 2,
  /** Bad command-line input (BSD sysexits' EX_USAGE), distinct from every verdict. */
  usage: 64,
} as const;

/** An expected end of a command, with its message and status. */
export class CliExit extends Error {
  override name = 'CliExit';
  readonly status: number;
  constructor(message: string, status: number) {
    super(message);
    this.status = status;
  }
}

export const usageError = (message: string): CliExit => new CliExit(message, EXIT.usage);
