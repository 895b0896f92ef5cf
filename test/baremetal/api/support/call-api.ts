/**
 * One request to Baton's API in process, as the API suites send it (a microversion header, a
 * JSON payload), and its answer as they read it: the status, the headers, the text, the body
 * parsed (none when empty), and Ironic's faultstring on demand.
 */
import type { BatonApi } from './baton-api.ts';

export interface CallOptions {
  readonly payload?: unknown;
  /** The microversion asked for; 1.82 unless told. */
  readonly version?: string;
  /** More headers (a persona's). */
  readonly headers?: Record<string, string>;
}

export async function callApi(
  api: BatonApi,
  method: string,
  url: string,
  { payload, version = '1.82', headers = {} }: CallOptions = {},
) {
  const answer = await api.request({
    method: method as 'GET',
    url,
    headers: { 'X-OpenStack-Ironic-API-Version': version, ...headers },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  const text = answer.body;
  return {
    status: answer.statusCode,
    headers: answer.headers,
    text,
    body: text === '' ? undefined : answer.json(),
    fault: () => JSON.parse(answer.json().error_message).faultstring as string,
  };
}
