import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import type { DatabaseRegistry } from './engines/database-registry.ts';
import type { AppStore } from './store/app-store.ts';
import { errorEnvelope, failure } from './plugins/error-envelope.ts';
import { requestLogging } from './plugins/request-logging.ts';
import { healthRoutes } from './features/health/routes.ts';
import { setupRoutes } from './features/setup/routes.ts';

/** What the app is built from: the parsed configuration and the opened connections (main.ts or a test owns them). */
export interface AppContext {
  config: Config;
  store: AppStore;
  databases: DatabaseRegistry;
  /** The built web app (dist/web); when absent only the API is served. */
  webRoot?: string | null;
}

/** Builds the Fastify instance: API routes with zod schemas, OpenAPI at /api/docs, and the web app. */
export async function buildApp(context: AppContext): Promise<FastifyInstance> {
  const app = Fastify({
    ...requestLogging(context.config),
    // Answer 503 to new requests while closing; requests in flight finish (graceful shutdown).
    return503OnClosing: true,
    forceCloseConnections: 'idle',
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  errorEnvelope(app);

  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'DBUI API',
        version: '0.1.0',
        description:
          'Every answer is the envelope {isSuccess, data, message}; failures carry a message a person can act on.',
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });

  await app.register(healthRoutes(context.store, context.databases));
  await app.register(setupRoutes(context.store));

  serveWebApp(app, context.webRoot ?? null);
  return app;
}

/** Serves the built single-page app: hashed assets cached for good, every other page path gets index.html. */
function serveWebApp(app: FastifyInstance, webRoot: string | null): void {
  const index = webRoot ? path.join(webRoot, 'index.html') : null;
  const hasWeb = index !== null && fs.existsSync(index);
  if (hasWeb && webRoot) {
    void app.register(fastifyStatic, {
      root: webRoot,
      wildcard: true,
      index: 'index.html',
      cacheControl: false,
      setHeaders: (res, file) => {
        const immutable = file.includes(`${path.sep}assets${path.sep}`);
        res.setHeader('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '';
    if (pathname === '/api' || pathname.startsWith('/api/') || !hasWeb || request.method !== 'GET') {
      return reply
        .code(404)
        .send(failure(`There is no ${request.method} ${pathname}. The API is described at /api/docs.`));
    }
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}
