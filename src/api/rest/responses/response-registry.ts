import { z } from 'zod';

/**
 * The REST answers' shapes (docs/architecture.md "One declaration per shape"): each is declared once, as a zod
 * schema registered here under its OpenAPI component name. The serializers are typed by them (`z.output`), and the
 * OpenAPI document's components are generated from them (`responseComponents()`), so the JSON a route writes, its
 * TypeScript type and what the document promises cannot drift apart; the end-to-end tests check real answers against
 * the document.
 */
export const responses = z.registry<{ id: string }>();

/** `schema`, registered as the component `id`: a field using it becomes a `$ref`, with its own description beside. */
export function component<S extends z.ZodType>(id: string, schema: S): S {
  responses.add(schema, { id });
  return schema;
}

/** A field's schema with its prose (and examples), as the document shows it. */
export const documented = <S extends z.ZodType>(schema: S, description: string, examples?: unknown[]): S =>
  schema.meta({ description, ...(examples ? { examples } : {}) });
