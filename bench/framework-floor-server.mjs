// The floor's work (floor-work.mjs) behind a framework, with nothing else: FRAMEWORK=fastify, one
// Fastify route per operation; FRAMEWORK=nest, the same routes as a Nest controller on Nest's
// Fastify adapter, as the service runs it, without a guard, pipe, filter or hook of the service's.
// Against floor-server.mjs (node:http), it measures what each framework costs by itself, which no
// change to the service can take away while the service is built on it (`npm run bench --
// --frameworks`).
import 'reflect-metadata';
import { Controller, Get, Module, Post, Req, Res } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import Fastify from 'fastify';
import { answer } from './floor-work.mjs';

const { FRAMEWORK, PORT } = process.env;
const ROUTES = [
  ['GET', '/v1/pets', 'listPets'],
  ['POST', '/v1/pets', 'createPet'],
  ['GET', '/v1/pets/:petId', 'getPet'],
];

/** The floor reads a body itself, from node's request: the framework leaves it unread. */
function leaveBodiesUnread(fastify) {
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', (request, payload, done) => done(null));
}

async function fastifyServer() {
  const fastify = Fastify();
  leaveBodiesUnread(fastify);
  for (const [method, url] of ROUTES) {
    fastify.route({
      method,
      url,
      handler: async (request, reply) => {
        const { status, headers, body } = await answer(request.raw);
        void reply.code(status).headers(headers);
        return body;
      },
    });
  }
  await fastify.listen({ port: Number(PORT), host: '127.0.0.1' });
}

async function nestServer() {
  class FloorController {}
  // What TypeScript's decorators would write: one handler method per route, its request and its
  // reply (passthrough: the handler returns the body, as the service's controllers do).
  for (const [method, url, name] of ROUTES) {
    // A function of its own per route: Nest keeps a route's metadata on its handler.
    FloorController.prototype[name] = async function (request, reply) {
      const { status, headers, body } = await answer(request.raw);
      void reply.code(status).headers(headers);
      return body;
    };
    const descriptor = Object.getOwnPropertyDescriptor(FloorController.prototype, name);
    (method === 'GET' ? Get : Post)(url.slice('/v1/pets'.length))(
      FloorController.prototype,
      name,
      descriptor,
    );
    Req()(FloorController.prototype, name, 0);
    Res({ passthrough: true })(FloorController.prototype, name, 1);
    Reflect.defineMetadata('design:paramtypes', [Object, Object], FloorController.prototype, name);
  }
  Controller('v1/pets')(FloorController);
  class FloorModule {}
  Module({ controllers: [FloorController] })(FloorModule);

  const adapter = new FastifyAdapter();
  leaveBodiesUnread(adapter.getInstance());
  const app = await NestFactory.create(FloorModule, adapter, {
    logger: ['error'],
    bodyParser: false,
  });
  await app.listen(Number(PORT), '127.0.0.1');
}

await (FRAMEWORK === 'nest' ? nestServer() : fastifyServer());
process.send?.('ready');

// Exits normally when stopped, so that a CPU profile (bench --profile) is written.
process.on('SIGTERM', () => process.exit(0));
