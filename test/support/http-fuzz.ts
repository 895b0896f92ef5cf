/**
 * A bounded HTTP fuzzer for the services' APIs (issue 16 §1): fast-check draws requests
 * (route and method, path segments, query strings, headers, bodies: JSON, near-valid JSON,
 * deep, long, NUL, invalid UTF-8), each is sent through the app with a deadline, and every
 * answer is checked: no 5xx, no hang, an error body in the service's own format. The
 * service's suite adds its invariants, checked after every request. Runs are seeded and
 * counted, never cut short by a clock: a green run has sent every request it names, however
 * loaded the machine, and a failure replays.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';

export interface FuzzRoute {
  readonly url: string;
  readonly methods: readonly string[];
}

/** The routes an app declares (read with an onRoute hook while `register` adds them). */
export async function declaredRoutes(
  make: () => FastifyInstance,
  register: (app: FastifyInstance) => void,
): Promise<FuzzRoute[]> {
  const app = make();
  const routes: FuzzRoute[] = [];
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    routes.push({ url: route.url, methods: methods as string[] });
  });
  register(app);
  await app.ready();
  await app.close();
  return routes;
}

export interface FuzzRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body: Buffer | undefined;
}

export interface FuzzAnswer {
  readonly status: number;
  readonly headers: Record<string, unknown>;
  readonly body: string;
}

export interface FuzzSpec {
  readonly routes: readonly FuzzRoute[];
  /** Known good values for path parameters (by name), used half of the time. */
  readonly fill: () => Readonly<Record<string, string>>;
  /** The service's version header, and values to send in it. */
  readonly versionHeader: string;
  readonly versions: readonly string[];
  /** Query keys the API knows (drawn beside random ones). */
  readonly queryKeys: readonly string[];
  /** Bodies of the right shape for the API (mutated and mixed with random JSON). */
  readonly bodies: readonly unknown[];
  /** Headers every request carries unless the draw drops them (auth). */
  readonly baseHeaders: Readonly<Record<string, string>>;
  /** Extra header sets to draw from (roles, content types, Accept). */
  readonly headerSets: readonly Readonly<Record<string, string>>[];
  /** Methods never drawn (e.g. DELETE of the seeded data is allowed but rarer). */
  readonly send: (request: FuzzRequest) => Promise<FuzzAnswer>;
  /** Asserts the answer is in the service's format; the request is given for context. */
  readonly checkAnswer: (answer: FuzzAnswer, request: FuzzRequest) => void;
  /** Asserts the service's invariants, after each request. */
  readonly checkInvariants?: () => Promise<void>;
  readonly seed: number;
  /** How many requests are sent; all of them, whatever the time they take. */
  readonly numRuns: number;
  /** A request not answered within this long fails the run (a hang). */
  readonly requestTimeoutMs?: number;
}

export interface FuzzReport {
  requests: number;
  byStatus: Record<number, number>;
  serverErrors: number;
  elapsedMs: number;
}

const SEGMENTS = [
  'x',
  '%00',
  '%ff%fe',
  '..',
  '%2F',
  '-1',
  '0',
  '99999999999999999999',
  '00000000-0000-0000-0000-000000000000',
  'é'.repeat(300),
  'n'.repeat(9000),
  'CUSTOM_X',
  'a%20b',
];

const STRANGE_STRINGS = [
  '',
  ' ',
  'a\u0000b',
  '\ud800',
  'x'.repeat(70_000),
  '💥',
  'NaN',
  '-0',
  '1e400',
  '<script>',
  "'",
  '"',
  '\\',
];

/** JSON text of a value, sometimes broken, deep, or with invalid UTF-8 bytes. */
function bodyArbitrary(spec: FuzzSpec): fc.Arbitrary<Buffer | undefined> {
  const shaped = fc.constantFrom(...spec.bodies);
  const mutated = fc
    .tuple(shaped, fc.jsonValue({ maxDepth: 3 }), fc.constantFrom(...STRANGE_STRINGS))
    .map(([body, value, strange]) => mutate(body, value, strange));
  const text = fc.oneof(
    { weight: 4, arbitrary: mutated.map((v) => JSON.stringify(v) ?? 'null') },
    { weight: 2, arbitrary: shaped.map((v) => JSON.stringify(v) ?? 'null') },
    { weight: 1, arbitrary: fc.json({ maxDepth: 4 }) },
    { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
    {
      weight: 1,
      arbitrary: fc
        .integer({ min: 200, max: 5_000 })
        .map((n) => `{"a": ${'['.repeat(n)}${']'.repeat(n)}}`),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(shaped, fc.integer({ min: 0, max: 200 }))
        .map(([v, cut]) => (JSON.stringify(v) ?? '').slice(0, cut)),
    },
  );
  const bytes = fc.oneof(
    { weight: 9, arbitrary: text.map((t) => Buffer.from(t)) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          text,
          fc.uint8Array({ minLength: 1, maxLength: 4 }).map((b) => Buffer.from(b)),
        )
        .map(([t, bad]) => {
          const at = Math.floor(t.length / 2);
          return Buffer.concat([Buffer.from(t.slice(0, at)), bad, Buffer.from(t.slice(at))]);
        }),
    },
  );
  return fc.option(bytes, { nil: undefined, freq: 4 });
}

/** `body` with one of its fields (at any depth) replaced by `value` or a strange string. */
function mutate(body: unknown, value: unknown, strange: string): unknown {
  if (body === null || typeof body !== 'object') return value;
  const copy = structuredClone(body) as Record<string, unknown>;
  const paths: (string | number)[][] = [];
  const walk = (node: unknown, path: (string | number)[]) => {
    if (node === null || typeof node !== 'object') return;
    for (const key of Object.keys(node)) {
      const next = [...path, Array.isArray(node) ? Number(key) : key];
      paths.push(next);
      walk((node as Record<string, unknown>)[key], next);
    }
  };
  walk(copy, []);
  if (paths.length === 0) return { [strange]: value };
  const target = paths[(strange.length + JSON.stringify(value ?? null).length) % paths.length];
  let parent: Record<string | number, unknown> = copy;
  for (const key of (target ?? []).slice(0, -1)) {
    parent = parent[key] as Record<string | number, unknown>;
  }
  const last = (target ?? [])[(target ?? []).length - 1] as string | number;
  parent[last] = strange.length % 2 === 0 ? strange : value;
  return copy;
}

function queryArbitrary(spec: FuzzSpec): fc.Arbitrary<string> {
  const key = fc.oneof(fc.constantFrom(...spec.queryKeys), fc.string({ maxLength: 8 }));
  const value = fc.oneof(
    fc.string({ maxLength: 30 }),
    fc.constantFrom(...STRANGE_STRINGS.slice(0, 4), 'in:a,b', '!x', '1', '-1', 'VCPU:1'),
    fc.uuid(),
  );
  return fc
    .array(fc.tuple(key, value), { maxLength: 4 })
    .map((pairs) =>
      pairs.length === 0
        ? ''
        : `?${pairs.map(([k, v]) => `${percentEncoded(k)}=${percentEncoded(v)}`).join('&')}`,
    );
}

/** Every byte of the text's UTF-8 percent-encoded (a lone surrogate too, unlike encodeURIComponent). */
function percentEncoded(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) out += `%${byte.toString(16).padStart(2, '0')}`;
  return out;
}

/** Runs the fuzz; throws on the first failing request (fast-check shrinks and reports it). */
export async function fuzzHttp(spec: FuzzSpec): Promise<FuzzReport> {
  const report: FuzzReport = { requests: 0, byStatus: {}, serverErrors: 0, elapsedMs: 0 };
  const started = Date.now();
  // Mostly the methods a route declares; one draw in five any other (405s, HEAD, OPTIONS).
  const otherMethods = ['GET', 'PUT', 'POST', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'];
  const methodsOf = (route: FuzzRoute, pick: number) =>
    pick % 5 === 0 || route.methods.length === 0 ? otherMethods : route.methods;
  const requestArb = fc
    .record({
      route: fc.constantFrom(...spec.routes),
      methodPick: fc.nat(),
      segment: fc.option(fc.constantFrom(...SEGMENTS), { nil: undefined, freq: 2 }),
      query: queryArbitrary(spec),
      version: fc.option(fc.constantFrom(...spec.versions), { nil: undefined, freq: 6 }),
      extra: fc.option(fc.constantFrom(...spec.headerSets), { nil: undefined, freq: 2 }),
      body: bodyArbitrary(spec),
      contentType: fc.constantFrom(
        'application/json',
        'application/json',
        'application/json; charset=utf-8',
        'text/plain',
        'application/x-www-form-urlencoded',
      ),
    })
    .map(({ route, methodPick, segment, query, version, extra, body, contentType }) => {
      const methods = methodsOf(route, methodPick);
      const method = methods[Math.floor(methodPick / 5) % methods.length] as string;
      const fill = spec.fill();
      const path = route.url.replace(/:(\w+)/g, (_m, name: string) =>
        segment !== undefined ? segment : percentEncoded(fill[name] ?? name),
      );
      const headers: Record<string, string> = { ...spec.baseHeaders, ...extra };
      if (version !== undefined) headers[spec.versionHeader] = version;
      if (body !== undefined) headers['content-type'] = contentType;
      return { method, url: `${path}${query}`, headers, body } satisfies FuzzRequest;
    });

  await fc.assert(
    fc.asyncProperty(requestArb, async (request) => {
      const answer = await withDeadline(spec.send(request), spec.requestTimeoutMs ?? 10_000);
      report.requests++;
      report.byStatus[answer.status] = (report.byStatus[answer.status] ?? 0) + 1;
      if (answer.status >= 500) report.serverErrors++;
      const where = `${request.method} ${request.url} [${request.body?.toString('utf8').slice(0, 200) ?? ''}]`;
      assert.ok(answer.status < 500, `${where}: ${answer.status} ${answer.body.slice(0, 500)}`);
      spec.checkAnswer(answer, request);
      await spec.checkInvariants?.();
    }),
    {
      // FUZZ_SEED replays (or varies) a run; the suites' own seed otherwise.
      seed: process.env.FUZZ_SEED === undefined ? spec.seed : Number(process.env.FUZZ_SEED),
      numRuns: spec.numRuns,
    },
  );
  report.elapsedMs = Date.now() - started;
  // fast-check stops early only on a failure, which throws above; the count is the proof.
  assert.equal(report.requests, spec.numRuns, 'every planned request was sent');
  return report;
}

function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms (a hang)`)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
