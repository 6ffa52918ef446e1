import { dataOf, json, nullable, object, ref, responseRef } from './components';

export const certificateSchemas = {
  Certificate: object({
    code: { type: 'string', pattern: '^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$', examples: ['K7QM-3XPA-9RTD-2WBN'] },
    verification_url: { type: 'string', format: 'uri', description: 'The public verification page (`/verify/{code}`, HTML).' },
    order_number: { type: 'string' },
    account_name: { type: 'string', description: 'The client account\'s name: the only client data shown.' },
    issued_at: ref('Timestamp'),
    source_language: { type: 'string' },
    target_language: { type: 'string' },
    translator: object({ name: { type: 'string' }, credentials: nullable({ type: 'string' }) }),
    notarized: { type: 'boolean', description: 'Notarization was recorded before the certificate was issued (D21).' },
    documents: {
      type: 'array',
      items: object({
        name: { type: 'string', description: 'The delivered translation.' },
        source_name: { type: 'string' },
        sha256: { type: 'string', pattern: '^[0-9a-f]{64}$', description: 'SHA-256 of the delivered translation file, footer included.' },
        page_count: { type: 'integer', minimum: 1 },
      }),
    },
  }),
};

export const certificatePaths = {
  '/certificates/{code}': {
    get: {
      operationId: 'verifyCertificate',
      tags: ['Verification'],
      summary: 'Verify a certificate of accuracy',
      description:
        'What the certificate with this verification code states (D20): order number, languages, translator, notarization ' +
        'and each document with its page count and the SHA-256 of the delivered translation, against which a copy can be ' +
        'checked. No key needed; limited per client address like the catalog. Never any file content, nor client data ' +
        'beyond the account name. Codes are read in any case, with or without dashes.',
      security: [],
      parameters: [{ name: 'code', in: 'path', required: true, schema: { type: 'string' }, description: 'The verification code printed on the certificate.' }],
      responses: {
        200: json(dataOf(ref('Certificate')), 'The certificate.'),
        404: responseRef('NotFound'),
      },
    },
  },
};
