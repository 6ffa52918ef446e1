import { dataOf, json, nullable, object, ref, responseRef } from './components';

const MIME_TYPES = [
  'application/pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'image/jpeg',
  'image/png',
];

const fileId = { name: 'id', in: 'path', required: true, schema: { type: 'string' }, description: 'File id.' };

export const fileSchemas = {
  File: {
    ...object(
      {
        id: ref('Id'),
        type: { enum: ['source', 'translation', 'certificate'] },
        name: { type: 'string', maxLength: 255, description: 'The client\'s file name without path or control characters.' },
        mime_type: { enum: MIME_TYPES, description: 'Detected from the bytes (D5).' },
        size_bytes: { type: 'integer', minimum: 1 },
        page_count: nullable({ type: 'integer', minimum: 1, description: 'Certified billing pages: max(1, ceil(word_count / 250)).' }),
        word_count: nullable({ type: 'integer', minimum: 1 }),
        analysis_status: {
          enum: ['pending', 'counted', 'uncountable'],
          description: '`uncountable`: no text could be counted (images, scans); a quote must then give `unit_count`.',
        },
        created_at: ref('Timestamp'),
        download_url: { type: 'string', format: 'uri', description: 'Translations and certificates only: signed, valid 5 minutes, no key needed.' },
      },
      ['id', 'type', 'name', 'mime_type', 'size_bytes', 'page_count', 'word_count', 'analysis_status', 'created_at'],
    ),
  },
};

export const filePaths = {
  '/files': {
    post: {
      operationId: 'uploadFile',
      tags: ['Files'],
      summary: 'Upload a file',
      description:
        'Streams a PDF, DOCX, JPEG or PNG (decided from the bytes) of at most 20 MB. Counts are analysed in the ' +
        'background: the answer always shows `page_count` and `word_count` null; poll `GET /files/{id}`.',
      requestBody: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: {
              type: 'object',
              required: ['file'],
              properties: {
                file: { type: 'string', contentMediaType: 'application/octet-stream' },
                type: { enum: ['source'], default: 'source' },
              },
            },
          },
        },
      },
      responses: {
        201: json(dataOf(ref('File')), 'The stored file, analysis pending.'),
        400: json(ref('Error'), 'The body is not well-formed multipart.'),
        401: responseRef('Unauthenticated'),
        403: responseRef('Forbidden'),
        422: responseRef('ValidationFailed'),
        503: responseRef('ProviderUnavailable'),
      },
    },
  },
  '/files/{id}': {
    get: {
      operationId: 'getFile',
      tags: ['Files'],
      summary: 'File metadata',
      description: 'A translation or certificate is 404 until its order is completed (D18).',
      parameters: [fileId],
      responses: {
        200: json(dataOf(ref('File')), 'The file, with counts once analysed.'),
        401: responseRef('Unauthenticated'),
        403: responseRef('Forbidden'),
        404: responseRef('NotFound'),
      },
    },
    delete: {
      operationId: 'deleteFile',
      tags: ['Files'],
      summary: 'Delete an unattached file',
      parameters: [fileId],
      responses: {
        204: { description: 'Deleted: the file and its bytes are gone.' },
        401: responseRef('Unauthenticated'),
        403: responseRef('Forbidden'),
        404: responseRef('NotFound'),
        422: responseRef('ValidationFailed'),
      },
    },
  },
  '/files/{id}/download': {
    get: {
      operationId: 'downloadFile',
      tags: ['Files'],
      summary: 'Download through a signed link',
      description: 'The `download_url` of a translation or certificate, or a staff link to any file (`scope=staff`, D18). No key: the signature is the permission.',
      security: [],
      parameters: [
        fileId,
        { name: 'expires', in: 'query', required: true, schema: { type: 'string', pattern: '^\\d+$' }, description: 'Unix seconds.' },
        { name: 'scope', in: 'query', required: false, schema: { const: 'staff' }, description: 'Staff links only; covered by the signature.' },
        { name: 'signature', in: 'query', required: true, schema: { type: 'string', pattern: '^[0-9a-f]{64}$' } },
      ],
      responses: {
        200: {
          description: 'The bytes, as an attachment.',
          headers: { 'Content-Disposition': { schema: { type: 'string' } } },
          content: Object.fromEntries(MIME_TYPES.map((type) => [type, { schema: { type: 'string', contentMediaType: type } }])),
        },
        403: json(ref('Error'), 'Expired or altered link: `{"message":"Invalid signature."}`.'),
        404: responseRef('NotFound'),
        503: responseRef('ProviderUnavailable'),
      },
    },
  },
};
