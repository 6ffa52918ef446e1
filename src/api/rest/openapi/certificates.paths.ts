import { dataOf, described, json, nullable, object, ref, responseRef } from './components';
import { exampleCertificate } from './examples';

export const certificateSchemas = {
  Certificate: object({
    code: {
      type: 'string',
      pattern: '^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$',
      description: 'The verification code printed on the certificate and in the footer of every translated page.',
      examples: ['K7QM-3XPA-9RTD-2WBN'],
    },
    verification_url: {
      type: 'string',
      format: 'uri',
      description: 'The public verification page for people (`/verify/{code}`, HTML).',
    },
    order_number: { type: 'string', description: 'Number of the certified order.', examples: ['LT-2611-AB12CD'] },
    account_name: { type: 'string', description: "The client account's name: the only client data shown." },
    issued_at: described(ref('Timestamp'), 'When the certificate was issued, at completion of the order (UTC).'),
    source_language: { type: 'string', description: "Canonical code of the documents' language." },
    target_language: { type: 'string', description: "Canonical code of the translation's language." },
    translator: described(
      object({
        name: { type: 'string', description: 'Full name of the translator who reviewed and signed.' },
        credentials: nullable(
          { type: 'string' },
          "The translator's credentials as recorded by the operator; null when none are recorded.",
        ),
      }),
      'Who stands behind the translation.',
    ),
    notarized: {
      type: 'boolean',
      description: 'A notarization was recorded (notary, commission, date) before the certificate was issued.',
    },
    superseded: {
      type: 'boolean',
      description:
        "True once the certificate of a revision of the order replaced this one: rely on `superseded_by`'s certificate instead.",
    },
    superseded_by: nullable(
      { type: 'string', examples: ['P4RT-8WQE-2MZC-7HNA'] },
      "The verification code of the revision's certificate that superseded this one; null while it stands.",
    ),
    documents_deleted_at: nullable(
      ref('Timestamp'),
      "When the certified documents were deleted under the client's retention policy (UTC); null while they are kept. The certificate stays valid: the fingerprints still verify a copy.",
    ),
    documents: {
      type: 'array',
      description: 'Each certified document, in the order of the certificate.',
      items: object({
        name: { type: 'string', description: 'File name of the delivered translation.' },
        source_name: { type: 'string', description: 'File name of the source document it translates.' },
        sha256: {
          type: 'string',
          pattern: '^[0-9a-f]{64}$',
          description: "SHA-256 of the delivered translation file, footer included: compare a copy's hash to it.",
        },
        page_count: { type: 'integer', minimum: 1, description: 'Pages of the translation.' },
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
        'What the certificate with this verification code states: order number, languages, translator, notarization ' +
        'and each document with its page count and the SHA-256 of the delivered translation, against which a copy can be ' +
        'checked. No key needed; limited per client address like the catalog. Never any file content, nor client data ' +
        'beyond the account name. Codes are read in any case, with or without dashes.',
      security: [],
      parameters: [
        {
          name: 'code',
          in: 'path',
          required: true,
          // Case, spaces and dashes are forgiven, and I/L/O read as 1/1/0: anything longer is no code at all.
          schema: { type: 'string', minLength: 16, maxLength: 64 },
          description: 'The verification code printed on the certificate.',
          example: 'K7QM-3XPA-9RTD-2WBN',
        },
      ],
      responses: {
        200: json(dataOf(ref('Certificate'), 'The certificate.'), 'The certificate.', { data: exampleCertificate }),
        404: responseRef('NotFound'),
      },
    },
  },
};
