import type { ZipFile } from 'yauzl';
import { DOCUMENT_LIMITS } from './limits';
import { entries, openZip } from './zip-reader';

/** The parts whose text counts: body (with its tables and text boxes), headers, footers, footnotes, endnotes. */
export const TEXT_PART = /^word\/(document|header\d*|footer\d*|footnotes|endnotes)\.xml$/;

/**
 * True when the zip at `path` holds `word/document.xml` (D5's test for a DOCX); false for any other or broken zip.
 * It reads only the zip's directory (names and sizes, no content), so it runs in the service process at upload.
 */
export async function isDocx(path: string): Promise<boolean> {
  let zip: ZipFile | undefined;
  try {
    zip = await openZip(path);
    // At most as many entries as any document work reads: the walk is bounded whatever the zip claims.
    let seen = 0;
    for await (const entry of entries(zip)) {
      if (entry.fileName === 'word/document.xml') return true;
      if (++seen >= DOCUMENT_LIMITS.zip.maxEntries) return false;
    }
    return false;
  } catch {
    return false;
  } finally {
    zip?.close();
  }
}
