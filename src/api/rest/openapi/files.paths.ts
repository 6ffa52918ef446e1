import { FORMATS } from '../../../documents/formats';
import { created, dataOf, json, ref, responseRef } from './components';
import { exampleCertificateFile, exampleFileCounted, exampleFileUploaded, exampleUpload } from './examples';

const fileId = {
  name: 'id',
  in: 'path',
  required: true,
  schema: ref('Id'),
  description: "File id, as answered by the upload or listed in an order's `files`.",
};

export const filePaths = {
  '/files': {
    post: {
      operationId: 'uploadFile',
      tags: ['Files'],
      summary: 'Upload a file',
      description:
        'Streams a PDF, DOCX, JPEG or PNG (decided from the bytes) of at most 20 MB; anything else, an empty file or a larger one is 422 and nothing is stored. ' +
        'Counts are analysed in the background: the answer always shows `page_count` and `word_count` null; poll `GET /files/{id}` (a quote also waits for them).',
      requestBody: {
        required: true,
        description: 'A `multipart/form-data` body with the document in the part `file`.',
        content: {
          'multipart/form-data': {
            schema: {
              type: 'object',
              required: ['file'],
              properties: {
                file: {
                  type: 'string',
                  format: 'binary',
                  contentMediaType: 'application/octet-stream',
                  description: "The document's bytes, with its file name in the part's `filename`.",
                },
                type: {
                  type: 'string',
                  enum: ['source'],
                  default: 'source',
                  description: 'Only source documents may be uploaded.',
                },
              },
            },
            encoding: {
              // The type is decided from the bytes, whatever the part says (D5).
              file: { contentType: [...FORMATS, 'application/octet-stream'].join(', ') },
              type: { contentType: 'text/plain' },
            },
            example: exampleUpload,
          },
        },
      },
      responses: {
        201: created(
          dataOf(ref('File'), 'The stored file.'),
          'The stored file, analysis pending.',
          { data: exampleFileUploaded },
          '/files/{id}',
        ),
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
      description:
        'One file: poll a new upload until `analysis_status` leaves `pending`. A translation or certificate answers 404 until its order is completed.',
      parameters: [fileId],
      responses: {
        200: {
          description: 'The file, with counts once analysed.',
          content: {
            'application/json': {
              schema: dataOf(ref('File'), 'The file.'),
              examples: {
                source: { summary: 'An uploaded source, counted', value: { data: exampleFileCounted } },
                certificate: {
                  summary: 'The certificate of a completed order, with its signed link',
                  value: { data: exampleCertificateFile },
                },
              },
            },
          },
        },
        401: responseRef('Unauthenticated'),
        403: responseRef('Forbidden'),
        404: responseRef('NotFound'),
      },
    },
    delete: {
      operationId: 'deleteFile',
      tags: ['Files'],
      summary: 'Delete an unattached file',
      description:
        'Deletes a source file that no quote or order uses (otherwise 422 under `file`; delete the quote first). Translations and certificates belong to their order and cannot be deleted (422).',
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
      description:
        'What a `download_url` points to: the bytes of a translation or certificate. No key: the signature is the permission, for 5 minutes. ' +
        'Staff links to any file carry `scope=staff`. An expired or altered link answers 403; ask for the file again for a fresh link.',
      security: [],
      parameters: [
        fileId,
        {
          name: 'expires',
          in: 'query',
          required: true,
          schema: { type: 'string', pattern: '^\\d+$' },
          description: 'When the link stops working, in Unix seconds (UTC).',
        },
        {
          name: 'scope',
          in: 'query',
          required: false,
          schema: { const: 'staff' },
          description: 'Staff links only; covered by the signature.',
        },
        {
          name: 'signature',
          in: 'query',
          required: true,
          schema: { type: 'string', pattern: '^[0-9a-f]{64}$' },
          description: 'HMAC-SHA256 of the path and query, in hex.',
        },
        {
          name: 'disposition',
          in: 'query',
          required: false,
          schema: { enum: ['attachment', 'inline'], default: 'attachment' },
          description:
            'Not covered by the signature. `inline` shows a PDF, PNG or JPEG in the browser, in a frame of a page of this service (a preview); any other type, and any other value, is an attachment.',
        },
      ],
      responses: {
        200: {
          description: 'The bytes, as an attachment (or inline, when asked for a PDF or an image).',
          headers: {
            'Content-Disposition': {
              description: '`attachment` (or `inline`) with the file name, ASCII and exact UTF-8 (RFC 6266).',
              schema: { type: 'string' },
            },
          },
          content: Object.fromEntries(
            FORMATS.map((type) => [type, { schema: { type: 'string', contentMediaType: type } }]),
          ),
        },
        403: json(
          ref('Error'),
          'An altered link: `{"message":"Invalid signature."}`; a genuine link past its 5 minutes: `{"message":"This link has expired: request the file again for a fresh link."}` (read the file again for a fresh `download_url`).',
        ),
        404: responseRef('NotFound'),
        410: json(
          ref('Error'),
          'The file was deleted under the account\'s retention policy, or at its request: `{"message":"This file was deleted under the account\'s retention policy."}`. Its record stays (`GET /files/{id}` shows `purged_at`).',
        ),
        503: responseRef('ProviderUnavailable'),
      },
    },
  },
};
