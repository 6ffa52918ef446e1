import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { openApiDocument } from '../../src/api/rest/openapi/document';

/**
 * The reference is written for integrators: every operation and schema property is described, every request
 * body and success answer has an example that validates against its schema, statuses explain their lifecycle,
 * 201s say where the new resource is, and nothing cites the team's internal decision ids.
 */
type Json = Record<string, unknown>;
const doc = openApiDocument('https://api.translations.example.org/api/v1') as unknown as Json & {
  paths: Record<string, Record<string, Json>>;
  components: Json;
};
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ $id: 'api.json', components: doc.components });

const compile = (schema: unknown) =>
  ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"api.json#/components/')));
const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, operation]) => ({ where: `${method.toUpperCase()} ${path}`, operation })),
);
const componentResponses = doc.components.responses as Record<string, Json>;
const resolve = (response: Json) =>
  typeof response.$ref === 'string' ? componentResponses[response.$ref.split('/').pop()!] : response;
const BINARY = /^(application\/pdf|application\/vnd\.|image\/)/;

/** Every schema reachable from the document, with where it is, for the walks below. */
function schemasOf(
  schema: unknown,
  where: string,
  out: { where: string; schema: Json }[] = [],
): { where: string; schema: Json }[] {
  if (!schema || typeof schema !== 'object') return out;
  const node = schema as Json;
  out.push({ where, schema: node });
  for (const [name, property] of Object.entries((node.properties as Json) ?? {}))
    schemasOf(property, `${where}.${name}`, out);
  if (node.items) schemasOf(node.items, `${where}[]`, out);
  if (node.additionalProperties && typeof node.additionalProperties === 'object')
    schemasOf(node.additionalProperties, `${where}{}`, out);
  for (const branch of (node.oneOf as unknown[]) ?? []) schemasOf(branch, `${where}|`, out);
  return out;
}

function allSchemas(): { where: string; schema: Json }[] {
  const out: { where: string; schema: Json }[] = [];
  for (const [name, schema] of Object.entries(doc.components.schemas as Json)) schemasOf(schema, name, out);
  for (const { where, operation } of operations) {
    for (const [type, media] of Object.entries(
      ((operation.requestBody as Json | undefined)?.content as Record<string, Json>) ?? {},
    ))
      schemasOf(media.schema, `${where} body ${type}`, out);
    for (const [status, response] of Object.entries(operation.responses as Record<string, Json>)) {
      for (const [type, media] of Object.entries((resolve(response).content as Record<string, Json>) ?? {}))
        schemasOf(media.schema, `${where} ${status} ${type}`, out);
    }
  }
  return out;
}

/** Every example in the document with the schema it must satisfy. */
function allExamples(): { where: string; schema: unknown; example: unknown }[] {
  const out: { where: string; schema: unknown; example: unknown }[] = [];
  const fromMedia = (where: string, media: Json) => {
    if ('example' in media) out.push({ where, schema: media.schema, example: media.example });
    for (const [name, example] of Object.entries((media.examples as Record<string, Json>) ?? {}))
      out.push({ where: `${where} (${name})`, schema: media.schema, example: example.value });
  };
  for (const { where, operation } of operations) {
    for (const [type, media] of Object.entries(
      ((operation.requestBody as Json | undefined)?.content as Record<string, Json>) ?? {},
    ))
      fromMedia(`${where} body ${type}`, media);
    for (const parameter of (operation.parameters as { name: string; schema: unknown }[] | undefined) ?? [])
      if ('example' in parameter)
        out.push({ where: `${where} ${parameter.name}`, schema: parameter.schema, example: parameter.example });
    for (const [status, response] of Object.entries(operation.responses as Record<string, Json>)) {
      const resolved = resolve(response);
      for (const [type, media] of Object.entries((resolved.content as Record<string, Json>) ?? {}))
        fromMedia(`${where} ${status} ${type}`, media);
      for (const [name, header] of Object.entries((resolved.headers as Record<string, Json>) ?? {}))
        if ('example' in header)
          out.push({ where: `${where} ${status} ${name}`, schema: header.schema, example: header.example });
    }
  }
  for (const { where, schema } of allSchemas()) {
    for (const example of (schema.examples as unknown[]) ?? [])
      out.push({ where: `${where} (schema examples)`, schema: { ...schema, examples: undefined }, example });
  }
  return out;
}

describe('the OpenAPI document as a reference', () => {
  it('validates every example against its schema', () => {
    const examples = allExamples();
    const failures = examples.flatMap(({ where, schema, example }) => {
      const validate = compile(schema);
      return validate(example) ? [] : [`${where}: ${ajv.errorsText(validate.errors)}`];
    });
    expect(failures).toEqual([]);
    expect(examples.length).toBeGreaterThan(40);
  });

  it('catches an example that does not match (the check itself works)', () => {
    const schema = (doc.components.schemas as Json).Order;
    const example = JSON.parse(
      JSON.stringify(
        ((doc.paths['/orders/{id}'].get.responses as Json)[200] as Json & { content: Record<string, Json> }).content[
          'application/json'
        ].example,
      ),
    );
    expect(compile({ type: 'object', properties: { data: schema } })(example)).toBe(true);
    example.data.total_cents = 59.6;
    expect(compile({ type: 'object', properties: { data: schema } })(example)).toBe(false);
  });

  it('has an example for every request body and every success answer with a body (binary downloads aside)', () => {
    const missing: string[] = [];
    for (const { where, operation } of operations) {
      for (const [type, media] of Object.entries(
        ((operation.requestBody as Json | undefined)?.content as Record<string, Json>) ?? {},
      )) {
        if (!('example' in media) && !media.examples) missing.push(`${where} body ${type}`);
      }
      for (const [status, response] of Object.entries(operation.responses as Record<string, Json>)) {
        if (!status.startsWith('2')) continue;
        for (const [type, media] of Object.entries((resolve(response).content as Record<string, Json>) ?? {})) {
          if (!BINARY.test(type) && !('example' in media) && !media.examples)
            missing.push(`${where} ${status} ${type}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('describes every operation and every schema property', () => {
    expect(
      operations
        .filter(({ operation }) => typeof operation.description !== 'string' || !operation.description)
        .map(({ where }) => where),
    ).toEqual([]);
    const undescribed = allSchemas().flatMap(({ where, schema }) =>
      Object.entries((schema.properties as Record<string, Json>) ?? {})
        .filter(([, property]) => typeof property.description !== 'string' || !property.description)
        .map(([name]) => `${where}.${name}`),
    );
    expect(undescribed).toEqual([]);
    expect(allSchemas().filter(({ schema }) => schema.properties).length).toBeGreaterThan(20);
  });

  it('cites no internal decision or contract ids in what integrators read', () => {
    const cited: string[] = [];
    const walk = (node: unknown, where: string) => {
      if (Array.isArray(node)) return node.forEach((item, i) => walk(item, `${where}/${i}`));
      if (!node || typeof node !== 'object') return;
      for (const [key, value] of Object.entries(node)) {
        if (
          (key === 'description' || key === 'summary') &&
          typeof value === 'string' &&
          /\b[DG]\d{1,2}\b|\bcontract \d/i.test(value)
        )
          cited.push(`${where}/${key}: ${value.slice(0, 80)}`);
        walk(value, `${where}/${key}`);
      }
    };
    walk(doc, '#');
    expect(cited).toEqual([]);
  });

  it('explains every order, booking and quote status in its status description', () => {
    for (const name of ['Order', 'Booking', 'Quote']) {
      const status = ((doc.components.schemas as Record<string, Json>)[name].properties as Record<string, Json>).status;
      for (const value of status.enum as string[])
        expect([name, value, (status.description as string).includes(`- \`${value}\`:`)]).toEqual([name, value, true]);
    }
  });

  it('documents Location on every 201', () => {
    const created = operations.filter(({ operation }) => (operation.responses as Json)[201]);
    expect(created.map(({ where }) => where).sort()).toEqual([
      'POST /files',
      'POST /interpretation-bookings',
      'POST /orders/{id}/messages',
      'POST /orders/{id}/revisions',
      'POST /quotes',
      'POST /quotes/{id}/convert',
    ]);
    for (const { where, operation } of created) {
      expect([where, (((operation.responses as Json)[201] as Json).headers as Json | undefined)?.Location]).toEqual([
        where,
        expect.objectContaining({ description: expect.any(String) }),
      ]);
    }
  });

  it('declares where each created resource leads, by operations that exist and take that id', () => {
    const byId = new Map(operations.map(({ operation }) => [operation.operationId as string, operation]));
    const linked = operations.filter(({ operation }) =>
      Object.values(operation.responses as Record<string, Json>).some((response) => response.links),
    );
    expect(linked.map(({ where }) => where).sort()).toEqual([
      'POST /files',
      'POST /interpretation-bookings',
      'POST /quotes',
      'POST /quotes/{id}/convert',
    ]);
    for (const { where, operation } of linked)
      for (const response of Object.values(operation.responses as Record<string, Json>))
        for (const [name, link] of Object.entries((response.links as Record<string, Json>) ?? {})) {
          const target = byId.get(link.operationId as string);
          const pathParameters = ((target?.parameters as Json[] | undefined) ?? [])
            .filter((parameter) => parameter.in === 'path')
            .map((parameter) => parameter.name);
          expect([where, name, Object.keys(link.parameters as Json)]).toEqual([where, name, pathParameters]);
        }
  });

  it('bounds every request string with a length, a format, a pattern or a list of values', () => {
    const bounded = (schema: Json) =>
      ['maxLength', 'format', 'pattern', 'enum', 'const', '$ref'].some((keyword) => keyword in schema);
    const unbounded: string[] = [];
    const check = (where: string, schema: unknown) => {
      for (const found of schemasOf(schema, where))
        if (found.schema.type === 'string' && !bounded(found.schema)) unbounded.push(found.where);
    };
    const components = doc.components.parameters as Record<string, Json>;
    for (const { where, operation } of operations) {
      for (const [type, media] of Object.entries(
        ((operation.requestBody as Json | undefined)?.content as Record<string, Json>) ?? {},
      ))
        check(`${where} body ${type}`, media.schema);
      for (const parameter of (operation.parameters as Json[] | undefined) ?? []) {
        const resolved = typeof parameter.$ref === 'string' ? components[parameter.$ref.split('/').pop()!] : parameter;
        check(`${where} ${String(resolved.name)}`, resolved.schema);
      }
    }
    const referenced = new Set(
      [...JSON.stringify(doc.paths).matchAll(/"#\/components\/schemas\/(\w+Request)"/g)].map((match) => match[1]),
    );
    for (const name of referenced) check(name, (doc.components.schemas as Json)[name]);
    expect(unbounded).toEqual([]);
  });
});
