/**
 * `/healthcheck` as oslo.middleware's healthcheck application answers it, for load balancers
 * (HAProxy's `option httpchk`) and supervisors. Healthy: 200 with the reasons as the body
 * (`OK`), typed by the Accept header (text/plain by default, text/html or application/json
 * when preferred), and 204 without a body to HEAD. Unhealthy: 503 with the reason. A process
 * is unhealthy while it drains after SIGTERM (`DRAINING`: it still finishes its requests, but
 * a balancer should send new ones elsewhere), while the operator's disable file exists
 * (oslo's `disable_by_file` backend: `DISABLED BY FILE`), or while the service says it cannot
 * do its work (Baton's: a conductor with no hardware registered, an API with no conductor). Any method is answered, as the
 * middleware answers any.
 */
import { existsSync } from 'node:fs';

/** oslo.middleware's reason for a healthy process. */
export const HEALTHY_REASON = 'OK';
/** oslo.middleware's disable_by_file reason. */
export const DISABLED_BY_FILE_REASON = 'DISABLED BY FILE';
/** Baton's reason while the process drains after a stop signal. */
export const DRAINING_REASON = 'DRAINING';

/** The `[healthcheck]` settings. */
export interface HealthcheckConfig {
  /** `[healthcheck] disable_by_file_path`: while this file exists, the check answers 503. */
  readonly healthcheckDisableByFilePath?: string | undefined;
}

/** A health check's answer: status, content type and body. */
export interface HealthAnswer {
  readonly status: number;
  /** Empty for a 204 (WebOb drops the type of a response that has no content). */
  readonly contentType: string;
  readonly body: string;
}

/** What the process says of itself: serving, or draining since a stop signal. */
export class HealthState {
  readonly #disableFile: string | undefined;
  #draining = false;
  #work: string | undefined;

  constructor(config: HealthcheckConfig = {}) {
    this.#disableFile = config.healthcheckDisableByFilePath?.trim() || undefined;
  }

  get draining(): boolean {
    return this.#draining;
  }

  /** From now on the check answers 503 DRAINING; the process keeps serving what reaches it. */
  startDraining(): void {
    this.#draining = true;
  }

  /**
   * What the service says of its own work, refreshed with each heartbeat: a reason it cannot
   * do it (a conductor with no hardware registered, an API with no conductor to act on nodes),
   * or undefined when it can.
   */
  noteWork(problem: string | undefined): void {
    this.#work = problem;
  }

  /** The failing reason, or undefined when healthy. */
  problem(): string | undefined {
    if (this.#draining) return DRAINING_REASON;
    if (this.#work !== undefined) return this.#work;
    if (this.#disableFile !== undefined && existsSync(this.#disableFile)) {
      return DISABLED_BY_FILE_REASON;
    }
    return undefined;
  }

  /** The answer to a health check request now. */
  answer(method: string, accept: string | undefined): HealthAnswer {
    return healthAnswer(this.problem(), method, accept);
  }
}

type Offer = 'text/plain' | 'text/html' | 'application/json';
const OFFERS: readonly Offer[] = ['text/plain', 'text/html', 'application/json'];

/**
 * The offer the Accept header prefers (highest q; ties to the middleware's order: plain,
 * html, json); text/plain when none is acceptable, as the middleware falls back.
 */
export function preferredHealthType(accept: string | undefined): Offer {
  if (accept === undefined || accept.trim() === '') return 'text/plain';
  let best: Offer | undefined;
  let bestQ = 0;
  for (const offer of OFFERS) {
    const q = acceptQuality(accept, offer);
    if (q > bestQ) {
      best = offer;
      bestQ = q;
    }
  }
  return best ?? 'text/plain';
}

/** The q of the most specific range matching `type` (0 when none does). */
function acceptQuality(accept: string, type: Offer): number {
  const [major] = type.split('/');
  let specificity = -1;
  let quality = 0;
  for (const part of accept.split(',')) {
    const [range = '', ...params] = part.split(';').map((p) => p.trim().toLowerCase());
    const level = range === type ? 2 : range === `${major}/*` ? 1 : range === '*/*' ? 0 : undefined;
    if (level === undefined || level < specificity) continue;
    const qParam = params.find((p) => p.startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    specificity = level;
    quality = Number.isFinite(q) ? Math.min(Math.max(q, 0), 1) : 0;
  }
  return quality;
}

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&#34;',
  "'": '&#39;',
};

function htmlBody(reason: string): string {
  const escaped = reason.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
  return [
    '<HTML>',
    '<HEAD><TITLE>Healthcheck Status</TITLE></HEAD>',
    '<BODY>',
    '',
    '<H2>Result of 1 checks:</H2>',
    '<TABLE bgcolor="#ffffff" border="1">',
    '<TBODY>',
    '<TR>',
    '',
    '<TH>',
    'Reason',
    '</TH>',
    '</TR>',
    '<TR>',
    '',
    `    <TD>${escaped}</TD>`,
    '',
    '</TR>',
    '</TBODY>',
    '</TABLE>',
    '<HR></HR>',
    '',
    '</BODY>',
    '</HTML>',
  ].join('\n');
}

/** The middleware's answer for one check whose reason is `problem` (undefined: healthy). */
export function healthAnswer(
  problem: string | undefined,
  method: string,
  accept: string | undefined,
): HealthAnswer {
  const healthy = problem === undefined;
  const reason = problem ?? HEALTHY_REASON;
  if (method === 'HEAD') {
    return healthy
      ? { status: 204, contentType: '', body: '' }
      : { status: 503, contentType: 'text/plain; charset=UTF-8', body: '' };
  }
  const status = healthy ? 200 : 503;
  switch (preferredHealthType(accept)) {
    case 'application/json':
      return {
        status,
        contentType: 'application/json',
        body: JSON.stringify({ detailed: false, reasons: [reason] }, null, 4),
      };
    case 'text/html':
      return { status, contentType: 'text/html; charset=UTF-8', body: htmlBody(reason) };
    default:
      return { status, contentType: 'text/plain; charset=UTF-8', body: reason };
  }
}
