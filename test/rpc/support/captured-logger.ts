/** An RpcLogger that keeps what it is told, for tests that read a transport's reports. */
import type { RpcLogger } from '../../../src/rpc/index.ts';

export interface CapturedRecord {
  readonly level: 'debug' | 'info' | 'warn' | 'error';
  readonly fields: Readonly<Record<string, unknown>>;
  readonly message: string;
}

/** `lines` gets each warning's and error's message; `records` gets everything. */
export function capturedRpcLogger(lines: string[], records: CapturedRecord[] = []): RpcLogger {
  const at =
    (level: CapturedRecord['level']) =>
    (fields: Readonly<Record<string, unknown>>, message: string) => {
      records.push({ level, fields, message });
      if (level === 'warn' || level === 'error') lines.push(message);
    };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}
