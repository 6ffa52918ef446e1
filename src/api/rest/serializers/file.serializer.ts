import type { FilesService } from '../../../domain/files/files.service';
import type { StoredFile } from '../../../domain/files/file.entity';
import { formatOptionalTimestamp, formatTimestamp } from '../../format';
import type { FileJson } from '../responses/file.response';

/** A file as `getFile` answers it, with `analysis_status` (D5) and the pages (D29); `download_url` only on translations and certificates, never on a deleted one (D33). */
export function serializeFile(file: StoredFile, files: FilesService): FileJson {
  const downloadUrl = files.downloadUrl(file);
  return {
    id: file.id,
    type: file.type,
    name: file.name,
    mime_type: file.mimeType,
    size_bytes: file.sizeBytes,
    page_count: file.pageCount,
    word_count: file.wordCount,
    document_pages: file.documentPages,
    scanned_pages: file.scannedPages,
    analysis_status: file.analysisStatus,
    created_at: formatTimestamp(file.createdAt),
    // D33: when its bytes were deleted under the retention policy; a file being deleted has no link already.
    purged_at: formatOptionalTimestamp(file.purgedAt),
    ...(downloadUrl ? { download_url: downloadUrl } : {}),
  };
}
