// A server that answers every request with one precomputed response: the ceiling an endpoint
// is compared with. `fastify` is the framework's ceiling, `node` the physical one.
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const [kind, bodyFile, contentType] = process.argv.slice(2);
if ((kind !== 'fastify' && kind !== 'node') || !bodyFile || !contentType) {
  process.stderr.write('usage: ceiling-server <fastify|node> <body-file> <content-type>\n');
  process.exit(2);
}
const body = readFileSync(bodyFile);

async function listen(): Promise<number> {
  if (kind === 'fastify') {
    const app = Fastify({ logger: false });
    // Same bytes, sent as a Buffer: no serialisation, only routing and reply handling.
    app.all('/*', (_request, reply) => reply.type(contentType!).send(body));
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    return typeof address === 'object' && address ? address.port : 0;
  }
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': contentType!, 'content-length': body.length });
      response.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return typeof address === 'object' && address ? address.port : 0;
}

const port = await listen();
process.stdout.write(`${JSON.stringify({ port })}\n`);
process.on('SIGTERM', () => process.exit(0));
