import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { lazySchemaCompilers } from './schema-compilers.ts';

describe('lazySchemaCompilers', () => {
  it("gives a route with a JSON schema Fastify's own validation and serialization, loaded on first use", async () => {
    const app = Fastify({ schemaController: { compilersFactory: lazySchemaCompilers() } });
    app.post(
      '/echo',
      {
        schema: {
          body: {
            type: 'object',
            required: ['n'],
            properties: { n: { type: 'integer', minimum: 1 } },
          },
          response: {
            200: { type: 'object', properties: { n: { type: 'integer' } } },
          },
        },
      },
      async (request) => ({ ...(request.body as { n: number }), internal: 'not sent' }),
    );
    try {
      const ok = await app.inject({ method: 'POST', url: '/echo', payload: { n: 2 } });
      expect(ok.statusCode).toBe(200);
      // fast-json-stringify writes the declared properties only.
      expect(ok.body).toBe('{"n":2}');
      const bad = await app.inject({ method: 'POST', url: '/echo', payload: { n: 0 } });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ message: 'body/n must be >= 1' });
    } finally {
      await app.close();
    }
  });
});
