/**
 * `/healthcheck` as oslo.middleware's healthcheck answers it (in front of everything else, no
 * authentication, no version headers): 200 `OK` as text/plain, 204 for HEAD; 503 with the
 * reason while the process drains, so that a load balancer stops sending it requests before
 * it stops listening. The real Ironic has it off by default (`[healthcheck] enabled`); Baton's
 * API always serves it, since its drain relies on it.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

export const HEALTHCHECK_PATH = '/healthcheck';

/** Whether the process is healthy; the drain turns it off. */
export class HealthState {
  #reason: string | undefined;

  get healthy(): boolean {
    return this.#reason === undefined;
  }

  /** Fail the check from now on, with the reason shown in its body. */
  fail(reason: string): void {
    this.#reason = reason;
  }

  get reason(): string {
    return this.#reason ?? 'OK';
  }
}

export function answerHealthcheck(
  request: FastifyRequest,
  reply: FastifyReply,
  health: HealthState,
): FastifyReply {
  const healthy = health.healthy;
  if (request.method === 'HEAD') return reply.code(healthy ? 204 : 503).send();
  return reply
    .code(healthy ? 200 : 503)
    .type('text/plain; charset=UTF-8')
    .send(health.reason);
}
