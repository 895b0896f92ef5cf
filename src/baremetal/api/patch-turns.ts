/**
 * How the API applies a PATCH that a conductor may refuse because its row changed meanwhile
 * (NodeChanged, VolumeChanged): PATCHes of one row take turns in this process, so that they do
 * not refuse each other, and a refusal (another process's write went in) applies the PATCH again
 * at once to a new read. After PATCH_ATTEMPTS the client gets the 409.
 */
import type { FastifyRequest } from 'fastify';
import { Turns } from '../common/turns.ts';
import { servicesOf } from './context.ts';

/**
 * How many times a PATCH is applied to a new read before the refusal is answered. Each refusal
 * means another writer's update went in; two API processes PATCHing one row at once each win
 * about half of the rounds, so twenty leave a PATCH a one-in-a-million chance of running out.
 */
export const PATCH_ATTEMPTS = 20;

/** The PATCHes of one kind of row (nodes, volumes), with their turns in each app. */
export class PatchTurns {
  /** The turns of each app's PATCHes (common/turns.ts). */
  readonly #turns = new WeakMap<object, Turns>();
  /** Whether an error is the refusal that asks for the PATCH again. */
  readonly #isChangedMeanwhile: (error: unknown) => boolean;

  constructor(isChangedMeanwhile: (error: unknown) => boolean) {
    this.#isChangedMeanwhile = isChangedMeanwhile;
  }

  /** Runs `apply` (read the row, apply the PATCH, send it) in the row's turn, again on refusal. */
  async apply<T>(request: FastifyRequest, ident: string, apply: () => Promise<T>): Promise<T> {
    const services = servicesOf(request);
    let turns = this.#turns.get(services);
    if (turns === undefined) {
      turns = new Turns();
      this.#turns.set(services, turns);
    }
    const leave = (await turns.take(ident)) as () => void;
    try {
      for (let attempt = 1; ; attempt++) {
        try {
          return await apply();
        } catch (error) {
          if (!this.#isChangedMeanwhile(error) || attempt >= PATCH_ATTEMPTS) throw error;
        }
      }
    } finally {
      leave();
    }
  }
}
