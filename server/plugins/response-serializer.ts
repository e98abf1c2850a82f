import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import type { z } from 'zod';

/*
 * Answers of the hot routes without validating them again (docs/decisions/0034-request-path.md). The zod serializer
 * parses every answer against its schema before JSON.stringify: on a page of rows that costs four times the
 * stringify itself. The service's types already guarantee the shape, so for those routes the schema is compiled once
 * into a projection that keeps what the zod serializer keeps (each object's declared keys, in the schema's order:
 * an internal field never leaks) and hands everything else to JSON.stringify untouched; rows (records of cell
 * values) are passed as they are. A schema the projection cannot express (transforms, defaults, dates, loose
 * objects…) keeps the zod serializer. The OpenAPI document comes from the schemas and is unchanged.
 */

/** A compiled projection: null when the value is written as it is. */
type Projection = ((value: unknown) => unknown) | null;

/** Types JSON.stringify writes exactly as the zod serializer does. */
const AS_IS = new Set(['string', 'number', 'boolean', 'null', 'literal', 'enum', 'unknown', 'any']);

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The projection of a schema; undefined when it cannot be compiled (then the zod serializer answers). */
export function projectionOf(schema: z.core.$ZodType): Projection | undefined {
  const def = schema._zod.def as z.core.$ZodTypeDef & Record<string, unknown>;
  if (AS_IS.has(def.type)) return null;
  switch (def.type) {
    case 'nullable':
    case 'optional': {
      const inner = projectionOf(def.innerType as z.core.$ZodType);
      if (inner === undefined) return undefined;
      return inner && ((value) => (value === null || value === undefined ? value : inner(value)));
    }
    case 'array': {
      const element = projectionOf(def.element as z.core.$ZodType);
      if (element === undefined) return undefined;
      return element && ((value) => (Array.isArray(value) ? value.map(element) : value));
    }
    case 'record': {
      // Any key is kept; only values that need a projection are copied.
      const values = projectionOf(def.valueType as z.core.$ZodType);
      if (values === undefined) return undefined;
      return (
        values &&
        ((value) =>
          isPlainObject(value)
            ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, values(v)]))
            : value)
      );
    }
    case 'union': {
      // Only unions of values written as they are: which member an object belongs to would need validating.
      const options = def.options as z.core.$ZodType[];
      return options.every((option) => projectionOf(option) === null) ? null : undefined;
    }
    case 'object': {
      const catchall = def.catchall as z.core.$ZodType | undefined;
      // A strict object is answered as a stripping one (an extra key is dropped, never refused); a loose one is not
      // compiled.
      if (catchall && catchall._zod.def.type !== 'never') return undefined;
      const fields: [string, Projection][] = [];
      for (const [key, field] of Object.entries(def.shape as Record<string, z.core.$ZodType>)) {
        const projection = projectionOf(field);
        if (projection === undefined) return undefined;
        fields.push([key, projection]);
      }
      return (value) => {
        if (!isPlainObject(value)) return value;
        const kept: Record<string, unknown> = {};
        for (const [key, projection] of fields) {
          const field = value[key];
          if (field !== undefined) kept[key] = projection ? projection(field) : field;
        }
        return kept;
      };
    }
    default:
      return undefined;
  }
}

/** Whether a route's answers are serialised by the compiled projection: the data routes, where every page goes. */
export const isHotRoute = (url: string): boolean => url === '/api/sql' || url.startsWith('/api/sql/');

/** The app's serializer compiler: the compiled projection for the hot routes, the zod serializer elsewhere. */
export const responseSerializerCompiler: FastifySerializerCompiler<z.core.$ZodType> = (route) => {
  const compilable = isHotRoute(route.url) && typeof route.schema === 'object' && '_zod' in route.schema;
  const projection = compilable ? projectionOf(route.schema) : undefined;
  if (projection === undefined)
    return zodSerializerCompiler(route as Parameters<typeof zodSerializerCompiler>[0]);
  if (projection === null) return (data) => JSON.stringify(data);
  return (data) => JSON.stringify(projection(data));
};
