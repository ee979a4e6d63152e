import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import { ResponseSerializationError } from 'fastify-type-provider-zod';
import type { z } from 'zod';

interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  options?: z.ZodType[];
  innerType?: z.ZodType;
  keyType?: z.ZodType;
  valueType?: z.ZodType;
  items?: z.ZodType[];
  rest?: z.ZodType | null;
  left?: z.ZodType;
  right?: z.ZodType;
}

/** The first transform or pipe anywhere in `schema`, by its path; null when there is none. */
function transformIn(schema: z.ZodType, path = '', seen = new Set<z.ZodType>()): string | null {
  if (seen.has(schema)) return null;
  seen.add(schema);
  const def = (schema as unknown as { _zod: { def: Def } })._zod.def;
  if (def.type === 'transform' || def.type === 'pipe') return path || '(root)';
  const children: [string, z.ZodType | null | undefined][] = [
    ...Object.entries(def.shape ?? {}).map(([key, child]) => [`${path}.${key}`, child] as [string, z.ZodType]),
    [`${path}[]`, def.element],
    ...(def.options ?? []).map((option) => [path, option] as [string, z.ZodType]),
    [path, def.innerType],
    [`${path}{key}`, def.keyType],
    [`${path}{}`, def.valueType],
    ...(def.items ?? []).map((item, i) => [`${path}[${i}]`, item] as [string, z.ZodType]),
    [`${path}[…]`, def.rest],
    [path, def.left],
    [path, def.right],
  ];
  for (const [at, child] of children) {
    const found = child ? transformIn(child, at, seen) : null;
    if (found) return found;
  }
  return null;
}

/**
 * Every answer is checked against its route's response schema before it is sent, so a field the
 * contract does not declare (a phone number, a sealed secret) never leaves, and a missing one is a
 * 500 here rather than a broken page. fastify-type-provider-zod checks with zod's `encode`, which
 * costs several times what `parse` does on the same data (about a sixth of a signed-in call:
 * docs/benchmarks.md, "API"). The two agree as long as a response schema holds no transform, which
 * is checked when the route is registered: a route with one stops the server at start-up.
 */
export const responseSerializer: FastifySerializerCompiler<z.ZodType> = ({ schema, method, url }) => {
  const transform = transformIn(schema);
  if (transform) throw new Error(`${method} ${url}: the response schema has a transform at ${transform}`);
  return (data) => {
    const result = schema.safeParse(data);
    if (result.error) throw new ResponseSerializationError(method, url, { cause: result.error });
    return JSON.stringify(result.data);
  };
};
