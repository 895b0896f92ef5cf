/**
 * Requests sent as a hostile client sends them, over a real socket: a body streamed chunk by
 * chunk (declared or chunked), stopped as soon as the answer arrives, so a test can tell how
 * much of the body the server took before it answered.
 */
import { request } from 'node:http';

export interface StreamedAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
  /** Bytes of the body the client had written when the answer's head arrived. */
  readonly bytesWrittenAtAnswer: number;
  readonly elapsedMs: number;
}

export interface StreamOptions {
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  /** Total body bytes; `prefix` first, then `fill` repeated. */
  readonly size: number;
  readonly prefix?: Buffer;
  /** Omit Content-Length and send chunked. */
  readonly chunked?: boolean;
  readonly chunkBytes?: number;
}

export function streamBody(options: StreamOptions): Promise<StreamedAnswer> {
  const started = Date.now();
  const chunkBytes = options.chunkBytes ?? 64 * 1024;
  const fill = Buffer.alloc(chunkBytes, 0x20);
  return new Promise((resolve, reject) => {
    let written = 0;
    let answered = false;
    const headers = { ...options.headers };
    if (!options.chunked) headers['content-length'] = String(options.size);
    const req = request(options.url, { method: options.method, headers });
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    req.on('response', (response) => {
      answered = true;
      const at = written;
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        req.destroy();
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          bytesWrittenAtAnswer: at,
          elapsedMs: Date.now() - started,
        });
      });
    });
    const pump = () => {
      while (!answered && written < options.size) {
        let chunk = written === 0 && options.prefix ? options.prefix : fill;
        if (chunk.length > options.size - written)
          chunk = chunk.subarray(0, options.size - written);
        written += chunk.length;
        if (!req.write(chunk)) {
          req.once('drain', pump);
          return;
        }
      }
      if (!answered) req.end();
    };
    pump();
  });
}
