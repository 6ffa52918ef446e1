import { z } from 'zod';
import { FORMATS } from '../../../documents/formats';
import { AnalysisStatus, FileType } from '../../../domain/files/file.entity';
import { Id, Timestamp, Url } from './base.response';
import { component, documented } from './response-registry';

/** A file as `getFile` answers it, with `analysis_status` (D5), the pages (D29) and its deletion (D33). */
export const File = component(
  'File',
  z.strictObject({
    id: Id.describe('The file id.'),
    type: documented(
      z.enum(FileType),
      '`source`: a document you uploaded. `translation` and `certificate`: made by the service for an order, and visible only once the order is completed.',
    ),
    name: documented(
      z.string().max(255),
      "The client's file name without path, control or invisible characters; for produced files, `<base>.<target language>.<ext>` or the certificate's name.",
    ),
    // The entity keeps the type as text; the formats it can hold are the ones an upload accepts.
    mime_type: documented(
      z.string().meta({ enum: [...FORMATS] }),
      'The format, detected from the bytes (never from the name or the declared type).',
    ),
    size_bytes: documented(z.number().int().min(1), 'Size in bytes (at most 20 MB = 20,971,520 for uploads).'),
    page_count: documented(
      z.number().int().min(1).nullable(),
      "A source: billing pages for certified work, max(1, ceil(word_count / 250)) for the text, plus one for each scanned page (`scanned_pages`). A translation or a certificate (delivered, not billed): its own pages as the document says them (a PDF's, Word's count), billing pages only when it does not say. Null while `analysis_status` is `pending` (always in the upload's answer) and when `uncountable`.",
    ),
    word_count: documented(
      z.number().int().min(1).nullable(),
      'Words, counted with Unicode word segmentation (so Chinese, Japanese and Thai count sensibly). Null while `pending` and when `uncountable`.',
    ),
    document_pages: documented(
      z.number().int().min(1).nullable(),
      "Physical pages: a PDF's pages, 1 for an image, a DOCX's pages as Word saved them. Null while `pending` and when the document does not say (a DOCX from another writer, a damaged file).",
    ),
    scanned_pages: documented(
      z.number().int().min(0).nullable(),
      'Pages with no text layer (scans, photos of paper; an image is one). Each is one billing page of `page_count`, and standard (machine) translation cannot read them. Null while `pending` and when unknown.',
    ),
    analysis_status: documented(
      z.enum(AnalysisStatus),
      '`pending`: counting runs in the background right after upload (usually within seconds). `counted`: `word_count` and `page_count` are set. ' +
        '`uncountable`: no text could be counted (images, scans, encrypted or damaged documents); a quote using the file must then give `unit_count`.',
    ),
    created_at: Timestamp.describe('When the file was stored (UTC).'),
    purged_at: documented(
      Timestamp.nullable(),
      "When the file's bytes were deleted under the account's retention policy, or at the account's request (UTC); null while they are kept. A deleted file keeps its record but has no `download_url`, and its old links answer 410.",
    ),
    download_url: documented(
      Url.optional(),
      'Translations and certificates only (absent on sources, and on a file whose deletion was decided): a signed link, valid 5 minutes, that needs no key. Read the file again for a fresh one.',
    ),
  }),
);

export type FileJson = z.output<typeof File>;
