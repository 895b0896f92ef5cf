/**
 * Load for fault tests: a few workers each sending one request after another, every answer
 * classified and counted. A request that takes longer than `hangMs` is a hang (a fault must
 * turn into an answer, not a wait); a 5xx is kept with its body so the test can check it is in
 * the service's own error format and says what happened.
 */

export interface Answer {
  readonly label: string;
  readonly status: number;
  readonly body: string;
  /** When the request was sent, ms since the epoch. */
  readonly at: number;
}

export interface LoadCounts {
  sent: number;
  ok: number;
  /** 4xx, by status. */
  clientErrors: Record<number, number>;
  /** The first 4xx body of each request label and status, to say what was refused. */
  clientErrorSamples: Record<string, string>;
  serverErrors: Answer[];
  /** No HTTP answer (connection refused or reset: the process itself was away). */
  noAnswer: { label: string; reason: string; at: number }[];
  hangs: { label: string; at: number }[];
}

export function emptyCounts(): LoadCounts {
  return {
    sent: 0,
    ok: 0,
    clientErrors: {},
    clientErrorSamples: {},
    serverErrors: [],
    noAnswer: [],
    hangs: [],
  };
}

export interface Request {
  readonly label: string;
  readonly method: string;
  readonly url: string;
  readonly headers?: Record<string, string>;
  readonly body?: unknown;
}

/** Sends one request and counts its outcome; returns the answer when there was one. */
export async function send(
  counts: LoadCounts,
  request: Request,
  hangMs = 20_000,
): Promise<Answer | undefined> {
  const at = Date.now();
  counts.sent += 1;
  try {
    const response = await fetch(request.url, {
      method: request.method,
      headers: {
        ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...request.headers,
      },
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      signal: AbortSignal.timeout(hangMs),
    });
    const body = await response.text();
    const answer = { label: request.label, status: response.status, body, at };
    if (response.status < 400) counts.ok += 1;
    else if (response.status < 500) {
      counts.clientErrors[response.status] = (counts.clientErrors[response.status] ?? 0) + 1;
      counts.clientErrorSamples[`${request.label} ${response.status}`] ??= body.slice(0, 300);
    } else counts.serverErrors.push(answer);
    return answer;
  } catch (error) {
    const e = error as Error;
    if (e.name === 'TimeoutError') counts.hangs.push({ label: request.label, at });
    else {
      const cause = (e.cause as { code?: string } | undefined)?.code ?? e.message;
      counts.noAnswer.push({ label: request.label, reason: String(cause), at });
      // Nobody listening: a worker must not spin on refusals.
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return undefined;
  }
}

/** Runs `workers` loops of `step` until `stop()` says so. */
export async function runWorkers(
  workers: number,
  step: (worker: number, iteration: number) => Promise<void>,
  stop: () => boolean,
): Promise<void> {
  await Promise.all(
    Array.from({ length: workers }, async (_, worker) => {
      for (let iteration = 0; !stop(); iteration++) await step(worker, iteration);
    }),
  );
}

/** One line of counts, as the fault suite prints them. */
export function describeCounts(name: string, counts: LoadCounts): string {
  const statuses = new Map<number, number>();
  for (const answer of counts.serverErrors) {
    statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
  }
  const fiveXx = [...statuses].map(([status, n]) => `${status}×${n}`).join(' ') || 'none';
  const fourXx =
    Object.entries(counts.clientErrors)
      .map(([status, n]) => `${status}×${n}`)
      .join(' ') || 'none';
  return (
    `${name}: sent ${counts.sent}, ok ${counts.ok}, 4xx ${fourXx}, 5xx ${fiveXx}, ` +
    `no answer ${counts.noAnswer.length}, hangs ${counts.hangs.length}`
  );
}
