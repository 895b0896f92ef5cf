/**
 * The operator's settings for a process's logs, health check and metrics: oslo.log's
 * `[DEFAULT]` options, oslo.middleware's `[healthcheck]` ones and Baton's `[metrics]`. Each
 * service's settings include them (its config file and flags set them); the process's
 * operations are built from them (process-operations.ts, loaded only by serving commands).
 */
import type { HealthcheckConfig } from './healthcheck.ts';
import { type ConnectionLimits, DEFAULT_CONNECTION_LIMITS } from './http/connection-limits.ts';
import { DEFAULT_MAX_REQUEST_BODY_SIZE } from './http/request-body.ts';
import { DEFAULT_LOGGING, type LoggingConfig } from './logging/log-settings.ts';

export interface OperationsConfig extends LoggingConfig, HealthcheckConfig, ConnectionLimits {
  /**
   * `[healthcheck] drain_delay`: seconds between a stop signal and closing the listener, the
   * health check failed meanwhile (the bare metal API's `[api] drain_wait` is its old name).
   */
  readonly drainDelaySeconds: number;
  /**
   * `[DEFAULT] graceful_shutdown_timeout` (oslo.service's): seconds the requests in flight may
   * take once the listener is closed, before the process cuts them and exits non-zero; 0: no
   * limit. The bare metal conductor bounds its work in flight with it (from the signal).
   */
  readonly gracefulShutdownTimeout: number;
  /** `[metrics] enabled`: count, and answer `/metrics`. */
  readonly metricsEnabled: boolean;
  /** `[metrics] bind_host` of the metrics listener. */
  readonly metricsHost: string;
  /** `[metrics] bind_port`: a metrics listener of its own (none when undefined). */
  readonly metricsPort: number | undefined;
  /** `[metrics] refresh_interval`: seconds between reads of the services table. */
  readonly metricsRefreshSeconds: number;
  /**
   * `[oslo_middleware] max_request_body_size`: bytes of a request body read at most; a larger
   * one is a 413, refused while it is read (src/service/http/request-body.ts).
   */
  readonly maxRequestBodySize: number;
}

/** The operations settings when none are given. */
export const DEFAULT_OPERATIONS: OperationsConfig = {
  ...DEFAULT_LOGGING,
  healthcheckDisableByFilePath: undefined,
  drainDelaySeconds: 0,
  gracefulShutdownTimeout: 60,
  metricsEnabled: true,
  metricsHost: '127.0.0.1',
  metricsPort: undefined,
  metricsRefreshSeconds: 10,
  maxRequestBodySize: DEFAULT_MAX_REQUEST_BODY_SIZE,
  ...DEFAULT_CONNECTION_LIMITS,
};
