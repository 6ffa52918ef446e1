import type { z } from 'zod';
import { jsonOf } from '../../../domain/shared/command-fields';
import { snakeCase } from '../../commands';
import type { Schema } from './components';

/**
 * A request's prose, by wire path (`addons.code` names the `code` of each add-on): a description, or schema keywords
 * laid over the generated ones (`default`, `example`). A `$ref` takes the part's place (a shared component).
 */
export type FieldDocs = Record<string, string | Schema>;

/**
 * The OpenAPI schema of a request body, generated from the command the door parses it with, so its types and limits
 * are the ones enforced; only the prose is written here.
 */
export const requestBodySchema = (command: z.ZodType, docs: FieldDocs): Schema => documented(jsonOf(command), docs, '');

/** A list's query parameters, from its command. */
export function queryParameters(command: z.ZodType, docs: FieldDocs): Schema[] {
  const { properties = {}, required = [] } = documented(jsonOf(command), docs, '') as {
    properties?: Record<string, Schema>;
    required?: string[];
  };
  return Object.entries(properties).map(([name, { description, example, ...schema }]) => ({
    name,
    in: 'query',
    ...(required.includes(name) ? { required: true } : {}),
    description,
    schema,
    ...(example === undefined ? {} : { example }),
  }));
}

function documented(json: Schema, docs: FieldDocs, path: string): Schema {
  const out: Schema = { ...json };
  const properties = json.properties as Record<string, Schema> | undefined;
  if (properties) {
    out.properties = Object.fromEntries(
      Object.entries(properties).map(([key, property]) => {
        const name = snakeCase(key);
        const at = path ? `${path}.${name}` : name;
        return [name, withDocs(documented(property, docs, at), docs[at])];
      }),
    );
    if (Array.isArray(json.required)) out.required = (json.required as string[]).map(snakeCase);
  }
  if (json.items) out.items = documented(json.items as Schema, docs, path);
  return out;
}

function withDocs(schema: Schema, doc: FieldDocs[string] | undefined): Schema {
  if (doc === undefined) return schema;
  if (typeof doc === 'string') return { ...schema, description: doc };
  return '$ref' in doc ? doc : { ...schema, ...doc };
}
