import { createRequire } from 'node:module';
import type { FastifyServerOptions } from 'fastify';

type CompilersFactory = NonNullable<
  NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']
>;
/** What @fastify/ajv-compiler and @fastify/fast-json-stringify-compiler export: a factory of builders. */
type Builder = (externalSchemas: unknown, options: unknown) => unknown;

/** require() as Fastify itself resolves its dependencies (from its own folder). */
const fastifyRequire = (() => {
  let load: NodeJS.Require | undefined;
  return (id: string): unknown => {
    load ??= createRequire(createRequire(import.meta.url).resolve('fastify'));
    return load(id);
  };
})();

/**
 * Fastify's own schema compilers (Ajv for validation, fast-json-stringify for answers), loaded when a route first
 * needs one rather than when the server is created (issue 17 target 6: a start does not need them). Without this
 * option Fastify requires both at `Fastify()` (about 470 files of Ajv, ajv-formats and fast-json-stringify, a fifth
 * of a start's module loading), although DBUI replaces them with its own compilers at once (zod's validator and
 * responseSerializerCompiler), so they are never used. A route or plugin that ever needs them still gets exactly
 * what Fastify would have built.
 */
export function lazySchemaCompilers(): CompilersFactory {
  let validator: Builder | undefined;
  let serializer: Builder | undefined;
  const buildValidator: Builder = (externalSchemas, options) => {
    validator ??= (fastifyRequire('@fastify/ajv-compiler') as () => Builder)();
    return validator(externalSchemas, options);
  };
  const buildSerializer: Builder = (externalSchemas, options) => {
    serializer ??= (fastifyRequire('@fastify/fast-json-stringify-compiler') as () => Builder)();
    return serializer(externalSchemas, options);
  };
  // Fastify's types name each compiler's overloads; these pass Fastify's arguments through unchanged.
  return { buildValidator, buildSerializer } as CompilersFactory;
}
