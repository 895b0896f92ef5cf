/**
 * One server of bench/microversion.ts, run as a worker thread (its own V8 isolate): a trivial
 * Fastify route, bare, with a hook writing the two version headers as constants, or with the
 * microversion plugin. Plain JavaScript because Node 20 workers do not inherit the parent's
 * module hooks; the TypeScript plugin is loaded as ESM through tsx's API, as the service would
 * run it. It answers 'cpu' with this thread's on-CPU time in ns and 'close' by closing.
 */
import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import Fastify from 'fastify';
import { register } from 'tsx/esm/api';

// Every server loads tsx, so that the plugin is the only difference between them.
register();
const { variant, config, version } = workerData;
const app = Fastify({ logger: false });
if (variant === 'plugin') {
  const mv = await import(new URL('../../src/microversion/index.ts', import.meta.url).href);
  const formatError = (report) => ({
    errors: [{ status: report.status, title: report.title, detail: report.detail }],
  });
  const negotiator = new mv.VersionNegotiator({ ...config, formatError });
  await app.register(mv.microversionPlugin, { negotiator });
} else if (variant === 'headers') {
  app.addHook('onRequest', (_request, reply, next) => {
    reply.header('openstack-api-version', version);
    reply.header('vary', 'openstack-api-version');
    next();
  });
}
app.get('/things', async () => ({ ok: true }));
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
