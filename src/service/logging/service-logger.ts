/**
 * The logger of a service process (pino): every line names the binary and, in a pool of
 * workers, the worker; JSON lines or text (oslo.log's layout) on stderr or appended to the
 * log file. Writes are asynchronous and buffered (sonic-boom); close() and the process's exit flush them.
 * The request log, the RPC layer and the service's own code all log through it.
 */
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { type DestinationStream, type Logger, pino } from 'pino';
import { workerNumber } from '../workers.ts';
import { type LogLevel, type LogSettings, LogSettingsError } from './log-settings.ts';
import { jsonLineAsText } from './text-log-line.ts';

export type { Logger } from 'pino';

/** Who logs: every line carries these. */
export interface LoggerIdentity {
  readonly binary: string;
  /** Worker K of a pool; default: this process's number when it is a cluster worker. */
  readonly worker?: number | undefined;
}

/** Where the formatted lines go instead of stderr or the file (tests, an embedding process). */
export interface LogSink {
  write(text: string): unknown;
}

export interface ServiceLogger {
  readonly logger: Logger;
  readonly settings: LogSettings;
  /** Changes the level of this logger and of the children made from now on. */
  setLevel(level: LogLevel): void;
  /** Opens the log file again (after logrotate moved it); nothing for stderr. */
  reopen(): void;
  /** Writes what is buffered, synchronously. */
  flush(): void;
}

interface FlushableSink extends LogSink {
  flushSync?(): void;
  reopen?(): void;
}

/** Fails now, with the path and the reason, rather than at the first line written. */
function checkWritable(file: string): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
    closeSync(openSync(file, 'a'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new LogSettingsError(`cannot open log file ${file}: ${code}`);
  }
}

/** Bytes gathered before a write, and the longest a line waits for one. */
const LOG_BUFFER_BYTES = 8192;
const LOG_FLUSH_MS = 100;

function destinationOf(settings: LogSettings): FlushableSink {
  if (settings.file !== undefined) checkWritable(settings.file);
  return pino.destination({
    dest: settings.file ?? 2,
    ...(settings.file === undefined ? {} : { append: true, mkdir: true }),
    sync: false,
    // One write per few kilobytes rather than per line: a write per request line cost the API
    // about a third of a millisecond. The timer bounds how long a line waits (people tailing
    // the file, tests waiting for a line); close(), flush() and the process's exit write the
    // rest (pino flushes on exit), only a SIGKILL can lose the last LOG_FLUSH_MS of lines.
    minLength: LOG_BUFFER_BYTES,
    periodicFlush: LOG_FLUSH_MS,
  });
}

/** pino writes JSON lines; the text format rewrites each on its way out. */
function formatted(settings: LogSettings, sink: FlushableSink): DestinationStream & FlushableSink {
  if (settings.format === 'json') return sink as DestinationStream & FlushableSink;
  return {
    write: (line: string) => sink.write(jsonLineAsText(line)),
    flushSync: () => sink.flushSync?.(),
    reopen: () => sink.reopen?.(),
  };
}

export function createServiceLogger(
  settings: LogSettings,
  identity: LoggerIdentity,
  sink?: LogSink,
): ServiceLogger {
  const stream = formatted(settings, sink ?? destinationOf(settings));
  const worker = identity.worker ?? workerNumber();
  const logger = pino(
    {
      level: settings.level,
      base: {
        pid: process.pid,
        binary: identity.binary,
        ...(worker === undefined ? {} : { worker }),
      },
      timestamp: pino.stdTimeFunctions.isoTime,
      // Level names rather than numbers: the lines are read by people and by log shippers.
      formatters: { level: (label) => ({ level: label }) },
      serializers: { err: pino.stdSerializers.errWithCause },
    },
    stream,
  );
  return {
    logger,
    settings,
    setLevel(level) {
      logger.level = level;
    },
    reopen() {
      stream.reopen?.();
    },
    flush() {
      try {
        stream.flushSync?.();
      } catch {
        // sonic-boom refuses to flush before its file is open: nothing was written yet.
      }
    },
  };
}
