import { open } from 'node:fs/promises';
import { isDocx } from './docx-parts';

export const PDF = 'application/pdf';
export const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
export const JPEG = 'image/jpeg';
export const PNG = 'image/png';
/** Every format a file of this service can have: what an upload accepts (D5). */
export const FORMATS: readonly string[] = [PDF, DOCX, JPEG, PNG];

/** The extension a file of each format is named with (D30: delivered files are named by what they are). */
export const EXTENSIONS: Record<string, string> = { [PDF]: 'pdf', [DOCX]: 'docx', [JPEG]: 'jpg', [PNG]: 'png' };

/** Images are never parsed: they have no text to count (D5). */
export const hasTextLayer = (mimeType: string): boolean => mimeType === PDF || mimeType === DOCX;

const startsWith = (head: Buffer, signature: number[]) => signature.every((byte, i) => head[i] === byte);

/**
 * The format from the bytes alone (D5), never from the name or the client's media type: PDF, JPEG and PNG
 * by their magic numbers, DOCX as a zip holding word/document.xml. Anything else is undefined.
 */
export async function detectFormat(path: string): Promise<string | undefined> {
  const handle = await open(path, 'r');
  const head = Buffer.alloc(8);
  try {
    await handle.read(head, 0, 8, 0);
  } finally {
    await handle.close();
  }
  if (head.subarray(0, 5).toString('latin1') === '%PDF-') return PDF;
  if (startsWith(head, [0xff, 0xd8, 0xff])) return JPEG;
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return PNG;
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04]) && (await isDocx(path))) return DOCX;
  return undefined;
}
