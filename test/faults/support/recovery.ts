/** Waits for a load to recover after a fault, and for reservations to clear. */
import type { LoadCounts } from './load.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Milliseconds from now until every load has had a second with successes and no new 5xx or
 * unanswered request; throws past `withinMs`.
 */
export async function untilRecovered(
  loads: readonly LoadCounts[],
  withinMs: number,
): Promise<number> {
  const start = Date.now();
  const failures = (c: LoadCounts) => c.serverErrors.length + c.noAnswer.length + c.hangs.length;
  for (;;) {
    const okBefore = loads.map((c) => c.ok);
    const failedBefore = loads.map(failures);
    await sleep(1_000);
    const recovered = loads.every(
      (c, i) => c.ok > (okBefore[i] ?? 0) && failures(c) === failedBefore[i],
    );
    // The second that proved it counts: recovery came at its start.
    if (recovered) return Date.now() - start - 1_000;
    if (Date.now() - start > withinMs) {
      const last = loads.map((c) =>
        [
          ...c.serverErrors.map((a) => `${a.label} → ${a.status} ${a.body.slice(0, 200)}`),
          ...c.noAnswer.map((a) => `${a.label} → ${a.reason}`),
          ...c.hangs.map((a) => `${a.label} → hang`),
        ].slice(-3),
      );
      throw new Error(
        `not recovered within ${withinMs} ms: ${loads.map((c) => `${c.ok} ok, ${failures(c)} failed`).join('; ')}; latest failures: ${JSON.stringify(last)}`,
      );
    }
  }
}

/** Polls `check` until it returns an empty list or `withinMs` passes; returns the last list. */
export async function untilEmpty(
  check: () => Promise<string[]>,
  withinMs: number,
): Promise<string[]> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const left = await check();
    if (left.length === 0 || Date.now() > deadline) return left;
    await sleep(500);
  }
}

/** The 5xx answers grouped by the first words of their message (what the client was told). */
export function reasons(counts: LoadCounts): Record<string, number> {
  const grouped: Record<string, number> = {};
  for (const answer of counts.serverErrors) {
    let text = answer.body;
    try {
      const outer = JSON.parse(answer.body) as { error_message?: string };
      text =
        (JSON.parse(outer.error_message ?? '{}') as { faultstring?: string }).faultstring ?? text;
    } catch {}
    const key = `${answer.status} ${text
      .replace(/[0-9a-f-]{36}/g, '<uuid>')
      .replace(/\d+ ms/, 'N ms')
      .slice(0, 90)}`;
    grouped[key] = (grouped[key] ?? 0) + 1;
  }
  return grouped;
}
