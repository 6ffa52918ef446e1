import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { Response } from 'supertest';
import { openApiDocument } from '../../src/api/rest/openapi/document';

/**
 * Checks a REST v1 response against the OpenAPI document: the path and method must be documented, the
 * status listed for that operation, and the body must match its schema (objects allow no extra fields),
 * so the document cannot drift from the code. Undocumented paths and methods may only answer 400/404/405.
 */
const BASE = '/api/v1';
const doc = openApiDocument('http://localhost/api/v1');
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ $id: 'api.json', components: doc.components });

type Json = Record<string, unknown>;
const cache = new Map<string, ValidateFunction>();

function compile(key: string, schema: unknown): ValidateFunction {
  let validate = cache.get(key);
  if (!validate) {
    validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"api.json#/components/')));
    cache.set(key, validate);
  }
  return validate;
}

const templates = Object.keys(doc.paths).map((template) => ({
  template,
  pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
}));

function resolveResponse(response: Json): Json {
  const ref = response.$ref as string | undefined;
  return ref ? (doc.components.responses as Record<string, Json>)[ref.split('/').pop()!] : response;
}

const bodyRefusals: Record<number, Json> = {
  400: { $ref: '#/components/responses/MalformedJson' },
  413: { $ref: '#/components/responses/PayloadTooLarge' },
  415: { $ref: '#/components/responses/UnsupportedMediaType' },
};

export function assertMatchesOpenApi(res: Response): void {
  const request = (res as unknown as { req: { method: string; path: string } }).req;
  const path = request.path.split('?')[0];
  if (!res.headers['x-request-id']) throw new Error(`${request.method} ${path}: no X-Request-Id header`);
  if (!path.startsWith(BASE)) return;
  const method = request.method.toLowerCase();
  const match = templates.find((t) => t.pattern.test(path.slice(BASE.length)));
  const operation =
    match && (doc.paths as Record<string, Record<string, Json>>)[match.template][method === 'head' ? 'get' : method];
  const where = `${request.method} ${path} -> ${res.status}`;

  if (!operation) {
    // Unknown paths and methods, and bodies refused before any route, get the plain error body.
    if (![400, 404, 405, 413, 415].includes(res.status)) throw new Error(`${where}: not in the OpenAPI document`);
    check(`error`, { $ref: '#/components/schemas/Error' }, res.body, where);
    return;
  }
  const responses = operation.responses as Record<string, Json>;
  // A body the shared parsers refuse never reached the operation: documented on POSTs, possible on any method.
  const documented = responses[String(res.status)] ?? bodyRefusals[res.status];
  if (!documented) throw new Error(`${where}: status not documented for this operation`);
  const content = resolveResponse(documented).content as Record<string, { schema: unknown }> | undefined;
  if (res.status >= 300 && res.status < 400) return; // a redirect's body is only a courtesy note
  if (!content) {
    if (res.text) throw new Error(`${where}: documented without a body, but answered ${res.text.slice(0, 200)}`);
    return;
  }
  if (method === 'head') return;
  const jsonContent = content['application/json'];
  if (!jsonContent) {
    // A binary answer: its media type must be one the operation documents.
    const type = String(res.headers['content-type'] ?? '').split(';')[0];
    if (!(type in content)) throw new Error(`${where}: media type ${type} not documented`);
    return;
  }
  check(`${match.template} ${method} ${res.status}`, jsonContent.schema, res.body, where);
}

function check(key: string, schema: unknown, body: unknown, where: string): void {
  const validate = compile(key, schema);
  if (!validate(body)) {
    throw new Error(
      `${where}: body does not match the OpenAPI document: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 500)}`,
    );
  }
}
