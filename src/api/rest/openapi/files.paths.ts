import { DOCX, JPEG, PDF, PNG } from '../../../documents/formats';
import { created, dataOf, described, json, nullable, object, ref, responseRef } from './components';
import { exampleCertificateFile, exampleFileCounted, exampleFileUploaded, exampleUpload } from './examples';

const MIME_TYPES = [
  'application/pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'image/jpeg',
  'image/png',
];

const fileId = {
  name: 'id',
  in: 'path',
  required: true,
  schema: ref('Id'),
  description: "File id, as answered by the upload or listed in an order's `files`.",
};

export const fileSchemas = {
  File: {
    ...object(
      {
        id: described(ref('Id'), 'The file id.'),
        type: {
          enum: ['source', 'translation', 'certificate'],
          description:
            '`source`: a document you uploaded. `translation` and `certificate`: made by the service for an order, and visible only once the order is completed.',
        },
        name: {
          type: 'string',
          maxLength: 255,
          description:
            "The client's file name without path, control or invisible characters; for produced files, `<base>.<target language>.<ext>` or the certificate's name.",
        },
        mime_type: {
          enum: MIME_TYPES,
          description: 'The format, detected from the bytes (never from the name or the declared type).',
        },
        size_bytes: {
          type: 'integer',
          minimum: 1,
          description: 'Size in bytes (at most 20 MB = 20,971,520 for uploads).',
        },
        page_count: nullable(
          { type: 'integer', minimum: 1 },
          "A source: billing pages for certified work, max(1, ceil(word_count / 250)) for the text, plus one for each scanned page (`scanned_pages`). A translation or a certificate (delivered, not billed): its own pages as the document says them (a PDF's, Word's count), billing pages only when it does not say. Null while `analysis_status` is `pending` (always in the upload's answer) and when `uncountable`.",
        ),
        word_count: nullable(
          { type: 'integer', minimum: 1 },
          'Words, counted with Unicode word segmentation (so Chinese, Japanese and Thai count sensibly). Null while `pending` and when `uncountable`.',
        ),
        document_pages: nullable(
          { type: 'integer', minimum: 1 },
          "Physical pages: a PDF's pages, 1 for an image, a DOCX's pages as Word saved them. Null while `pending` and when the document does not say (a DOCX from another writer, a damaged file).",
        ),
        scanned_pages: nullable(
          { type: 'integer', minimum: 0 },
          'Pages with no text layer (scans, photos of paper; an image is one). Each is one billing page of `page_count`, and standard (machine) translation cannot read them. Null while `pending` and when unknown.',
        ),
        analysis_status: {
          enum: ['pending', 'counted', 'uncountable'],
          description:
            '`pending`: counting runs in the background right after upload (usually within seconds). `counted`: `word_count` and `page_count` are set. ' +
            '`uncountable`: no text could be counted (images, scans, encrypted or damaged documents); a quote using the file must then give `unit_count`.',
        },
        created_at: described(ref('Timestamp'), 'When the file was stored (UTC).'),
        purged_at: nullable(
          ref('Timestamp'),
          "When the file's bytes were deleted under the account's retention policy, or at the account's request (UTC); null while they are kept. A deleted file keeps its record but has no `download_url`, and its old links answer 410.",
        ),
        download_url: {
          type: 'string',
          format: 'uri',
          description:
            'Translations and certificates only (absent on sources, and on a file whose deletion was decided): a signed link, valid 5 minutes, that needs no key. Read the file again for a fresh one.',
        },
      },
      [
        'id',
        'type',
        'name',
        'mime_type',
        'size_bytes',
        'page_count',
        'word_count',
        'document_pages',
        'scanned_pages',
        'analysis_status',
        'created_at',
        'purged_at',
      ],
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
              file: { contentType: [PDF, DOCX, JPEG, PNG, 'application/octet-stream'].join(', ') },
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
            MIME_TYPES.map((type) => [type, { schema: { type: 'string', contentMediaType: type } }]),
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
