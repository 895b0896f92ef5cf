/**
 * The one `/metrics` listener of a worker pool's primary, for `placement serve` and `baremetal
 * api` alike: a port already taken is the CLI's one-line failure, not a stack.
 */
import type { HealthState } from '../service/index.ts';
import { MetricsListenError, type MetricsListener } from '../service/metrics/metrics-listener.ts';
import type { OperationsConfig } from '../service/operations-config.ts';
import { CliExit, EXIT } from './cli-error.ts';

export async function listenPoolMetrics(
  config: OperationsConfig,
  health: HealthState,
  binary: string,
  out: (line: string) => void,
): Promise<MetricsListener | undefined> {
  if (!config.metricsEnabled || config.metricsPort === undefined) return undefined;
  const { listenForPoolMetrics } = await import('../service/process-operations.ts');
  let listener: MetricsListener | undefined;
  try {
    listener = await listenForPoolMetrics(config, health);
  } catch (error) {
    if (error instanceof MetricsListenError) throw new CliExit(error.message, EXIT.failure);
    throw error;
  }
  if (listener !== undefined) out(`${binary} pool metrics on ${listener.url}/metrics`);
  return listener;
}
