import { z } from 'zod';
import type { Schema } from '../openapi/components';
import { responses } from './response-registry';
// Every declared answer, so the document holds them all whichever the process has loaded.
import './account.response';
import './booking.response';
import './catalog.response';
import './certificate.response';
import './file.response';
import './invoice.response';
import './order-message.response';
import './order.response';
import './quote.response';

let generated: Record<string, Schema> | undefined;

/** The components of every declared answer, as OpenAPI 3.1 (JSON Schema 2020-12) writes them. */
export function responseComponents(): Record<string, Schema> {
  generated ??= generate();
  return generated;
}

function generate(): Record<string, Schema> {
  const { schemas } = z.toJSONSchema(responses, {
    io: 'output',
    uri: (id) => `#/components/schemas/${id}`,
  });
  return Object.fromEntries(
    Object.entries(schemas).map(([id, { $schema: _dialect, $id: _id, ...schema }]) => [id, withoutSafeBounds(schema)]),
  );
}

/** zod writes an integer's safe range as its bounds; the document keeps only the bounds the API states. */
function withoutSafeBounds(schema: Schema): Schema {
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (
      (key === 'maximum' && value === Number.MAX_SAFE_INTEGER) ||
      (key === 'minimum' && value === Number.MIN_SAFE_INTEGER)
    )
      continue;
    out[key] = Array.isArray(value)
      ? value.map((item: unknown) => (isSchema(item) ? withoutSafeBounds(item) : item))
      : isSchema(value)
        ? withoutSafeBounds(value)
        : value;
  }
  return out;
}

const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null;
