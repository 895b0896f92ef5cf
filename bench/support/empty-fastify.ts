/**
 * The floor of an HTTP read in Baton's stack: a Fastify server, in its own process as Baton's
 * is, with one route that answers a small JSON body and does nothing else. Prints its port.
 */
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/empty', async () => ({ usages: {} }));
const address = await app.listen({ host: '127.0.0.1', port: Number(process.argv[2] ?? 0) });
console.log(new URL(address).port);
