import type { ZipFile } from 'yauzl';
import { entries, openZip } from './zip-reader';

/** The parts whose text counts: body (with its tables and text boxes), headers, footers, footnotes, endnotes. */
export const TEXT_PART = /^word\/(document|header\d*|footer\d*|footnotes|endnotes)\.xml$/;

/** True when the zip at `path` holds `word/document.xml` (D5's test for a DOCX); false for any other or broken zip. */
export async function isDocx(path: string): Promise<boolean> {
  let zip: ZipFile | undefined;
  try {
    zip = await openZip(path);
    for await (const entry of entries(zip)) if (entry.fileName === 'word/document.xml') return true;
    return false;
  } catch {
    return false;
  } finally {
    zip?.close();
  }
}
