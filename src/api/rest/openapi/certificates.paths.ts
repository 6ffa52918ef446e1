import { dataOf, json, ref, responseRef } from './components';
import { exampleCertificate } from './examples';

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
