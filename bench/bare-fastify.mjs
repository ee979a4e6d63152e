// The baseline for bench/api.ts: Fastify with one POST route that returns a fixed JSON body.
import Fastify from 'fastify';

const body = process.env.BODY ?? '{}';
const app = Fastify();
app.post('/', (_request, reply) => reply.type('application/json').send(body));
await app.listen({ port: Number(process.argv[2]), host: '127.0.0.1' });
