/**
 * One server of bench/microversion.ts, run as a worker thread (its own V8 isolate). It serves
 * the same trivial route four times, each in its own Fastify context, so that the variants
 * are compared inside one isolate (isolates of identical code were seen to differ by 15% for
 * a whole run, more than the effect measured):
 *   /c/things  bare (no plugin), a second copy of /b, to measure the noise floor
 *   /b/things  bare
 *   /h/things  a hook writes the two version headers as constants (the floor any
 *              implementation of the spec pays)
 *   /p/things  the microversion plugin
 * Plain JavaScript because Node 20 workers do not inherit the parent's module hooks; the
 * TypeScript plugin is loaded as ESM through tsx's API, as the service would run it. It answers
 * 'cpu' with this thread's on-CPU time in ns and 'close' by closing.
 */
import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import Fastify from 'fastify';
import { register } from 'tsx/esm/api';

register();
const { config, version } = workerData;
const app = Fastify({ logger: false });
const mv = await import(new URL('../../src/microversion/index.ts', import.meta.url).href);
const formatError = (report) => ({
  errors: [{ status: report.status, title: report.title, detail: report.detail }],
});
const thing = async () => ({ ok: true });
for (const prefix of ['/c', '/b']) {
  await app.register(async (bare) => bare.get('/things', thing), { prefix });
}
await app.register(
  async (headers) => {
    headers.addHook('onRequest', (_request, reply, next) => {
      reply.header('openstack-api-version', version);
      reply.header('vary', 'openstack-api-version');
      next();
    });
    headers.get('/things', thing);
  },
  { prefix: '/h' },
);
await app.register(
  async (versioned) => {
    const negotiator = new mv.VersionNegotiator({ ...config, formatError });
    await versioned.register(mv.microversionPlugin, { negotiator });
    versioned.get('/things', thing);
  },
  { prefix: '/p' },
);
await app.listen({ host: '127.0.0.1', port: 0 });

// On-CPU time of this thread (Linux); unaffected by time spent waiting for a core.
function cpuNanoseconds() {
  try {
    return Number(fs.readFileSync('/proc/thread-self/schedstat', 'latin1').split(' ')[0]);
  } catch {
    return Number.NaN;
  }
}

// The kernel's id of this thread, so that the parent can pin it to a CPU.
function threadId() {
  try {
    return Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
  } catch {
    return 0;
  }
}

parentPort.postMessage({ port: app.server.address().port, tid: threadId() });
parentPort.on('message', (message) => {
  if (message === 'cpu') parentPort.postMessage(cpuNanoseconds());
  else app.close().then(() => parentPort.close());
});
