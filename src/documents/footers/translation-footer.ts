import { readFile, writeFile } from 'node:fs/promises';
import { DOCX, PDF } from '../formats';
import { DOCUMENT_LIMITS } from '../limits';
import { pdfLib } from '../pdf-lib';
import { stampDocx } from './docx-footer';
import { footerLine, type FooterFacts } from './footer-line';

export const footerFormats: readonly string[] = [PDF, DOCX];

/**
 * Writes the delivered copy of a translation with the certification footer on every page (D20) and returns its
 * page count when the format fixes one: a PDF's pages; for a DOCX, the pages Word last counted (docProps/app.xml),
 * since its pages are laid out only when it is opened, where Word fills the footer's PAGE and NUMPAGES fields.
 */
export async function stampTranslation(
  mimeType: string,
  input: string,
  output: string,
  facts: FooterFacts,
): Promise<{ pages: number | null }> {
  if (mimeType === PDF) return stampPdf(input, output, facts);
  if (mimeType === DOCX)
    return stampDocx(input, output, footerLine(facts, '{PAGE}', '{NUMPAGES}'), DOCUMENT_LIMITS.zip);
  throw new Error(`No certification footer for ${mimeType}`);
}

const SIZE = 7;
const BAND = 16;

/**
 * The footer in a band added below each page's visible area: the page grows by the band, so nothing of the
 * translation is ever covered, whatever it has at its foot.
 */
async function stampPdf(input: string, output: string, facts: FooterFacts): Promise<{ pages: number }> {
  const { PDFDocument, rgb, StandardFonts } = pdfLib();
  const doc = await PDFDocument.load(await readFile(input), { updateMetadata: false });
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const pages = doc.getPages();
  pages.forEach((page, index) => {
    const box = page.getCropBox();
    const media = page.getMediaBox();
    const bottom = box.y - BAND;
    page.setMediaBox(
      media.x,
      Math.min(media.y, bottom),
      media.width,
      media.y + media.height - Math.min(media.y, bottom),
    );
    page.setCropBox(box.x, bottom, box.width, box.height + BAND);
    const text = footerLine(facts, String(index + 1), String(pages.length));
    const size = Math.min(SIZE, ((box.width - 12) / font.widthOfTextAtSize(text, SIZE)) * SIZE);
    page.drawText(text, {
      x: box.x + (box.width - font.widthOfTextAtSize(text, size)) / 2,
      y: bottom + (BAND - size) / 2,
      size,
      font,
      color: rgb(0.2, 0.2, 0.2),
    });
  });
  await writeFile(output, await doc.save());
  return { pages: pages.length };
}
