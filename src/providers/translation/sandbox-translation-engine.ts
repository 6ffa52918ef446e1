import { createWriteStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { ZipFile as ZipWriter } from 'yazl';
import { TEXT_PART } from '../../documents/docx-parts';
import { DOCX, PDF } from '../../documents/formats';
import { pdfLib } from '../../documents/pdf-lib';
import { openPdf, pageTexts, type PdfDocument } from '../../documents/pdf-text';
import { UnicodeFonts } from '../../documents/unicode-fonts';
import { wrapText } from '../../documents/wrap-text';
import { entries, openZip, readEntry } from '../../documents/zip-reader';
import { UntranslatableError } from '../../shared/errors';
import type { TranslationEngine, TranslationJob } from './translation-engine';

/**
 * The sandbox engine (D11): deterministic and clearly marked, in the same format as the input. A DOCX keeps
 * every part, paragraph and table, with each paragraph's text prefixed by the target language; a PDF keeps
 * its page count and page sizes, each page carrying its text, in whatever script, under a marker line.
 * Images and text-less documents are untranslatable.
 */
export class SandboxTranslationEngine implements TranslationEngine {
  readonly name = 'sandbox';

  async translate(job: TranslationJob): Promise<void> {
    const marker = `[${job.targetLanguage.toUpperCase()}] `;
    if (job.mimeType === DOCX) return this.docx(job, marker);
    if (job.mimeType === PDF) return this.pdf(job, marker);
    throw new UntranslatableError('The document is an image: there is no text to translate.');
  }

  private async docx(job: TranslationJob, marker: string): Promise<void> {
    const zip = await openZip(job.path);
    const out = new ZipWriter();
    let marked = 0;
    try {
      for await (const entry of entries(zip)) {
        if (entry.fileName.endsWith('/')) continue;
        let content = await readEntry(zip, entry);
        if (TEXT_PART.test(entry.fileName)) {
          const { xml, count } = markParagraphs(content.toString('utf8'), marker);
          content = Buffer.from(xml, 'utf8');
          marked += count;
        }
        out.addBuffer(content, entry.fileName);
      }
    } finally {
      zip.close();
    }
    if (marked === 0) throw new UntranslatableError('The document has no text to translate.');
    out.end();
    await new Promise<void>((resolve, reject) => out.outputStream.pipe(createWriteStream(job.outputPath)).on('close', resolve).on('error', reject));
  }

  private async pdf(job: TranslationJob, marker: string): Promise<void> {
    const source = await openPdf(job.path);
    try {
      await this.drawPdf(job, marker, source);
    } finally {
      await source.destroy();
    }
  }

  private async drawPdf(job: TranslationJob, marker: string, source: PdfDocument): Promise<void> {
    const text: string[] = [];
    for await (const pageText of pageTexts(source)) text.push(pageText);
    if (!text.some((page) => page.trim())) throw new UntranslatableError('The document has no text layer to translate.');
    const heading = `${marker}Sandbox translation (${job.sourceLanguage} -> ${job.targetLanguage})`;
    const { PDFDocument, StandardFonts } = pdfLib();
    const doc = await PDFDocument.create();
    const fonts = await UnicodeFonts.forText(doc, [StandardFonts.Helvetica], `${heading}\n${text.join('\n')}`);
    const font = fonts.font(StandardFonts.Helvetica);
    for (const [index, pageText] of text.entries()) {
      const [left, bottom, right, top] = (await source.getPage(index + 1)).view;
      const page = doc.addPage([right - left, top - bottom]);
      const { size, lines } = fitToPage(page.getSize(), [heading, pageText], (line, size) => fonts.width(line, font, size));
      let y = page.getHeight() - MARGIN - size;
      for (const line of lines) {
        fonts.draw(page, line, { x: MARGIN, y, size, font });
        y -= size * LEADING;
      }
    }
    await writeFile(job.outputPath, await doc.save());
  }
}

const MARGIN = 40;
const LEADING = 1.4;
const FONT_SIZES = [10, 9, 8, 7, 6, 5];

/**
 * Lays a page's text out at the largest size that fits the page (each output page carries its source page's
 * text); text that does not fit even at the smallest size is cut with a note saying how much was left out.
 */
function fitToPage(
  page: { width: number; height: number },
  paragraphs: string[],
  measure: (line: string, size: number) => number,
): { size: number; lines: string[] } {
  const layout = (size: number) => paragraphs.flatMap((text) => wrapText(text, page.width - 2 * MARGIN, (line) => measure(line, size)));
  const room = (size: number) => Math.floor((page.height - 2 * MARGIN) / (size * LEADING));
  let lines: string[] = [];
  for (const size of FONT_SIZES) {
    lines = layout(size);
    if (lines.length <= room(size)) return { size, lines };
  }
  const size = FONT_SIZES.at(-1)!;
  const kept = lines.slice(0, room(size) - 1);
  return { size, lines: [...kept, `[... ${lines.length - kept.length} more lines not shown]`] };
}

/** Prefixes the first text run of every paragraph that has one, keeping all markup as it was. */
function markParagraphs(xml: string, marker: string): { xml: string; count: number } {
  let count = 0;
  const result = xml.replace(/<w:p\b[^>]*>[\s\S]*?<\/w:p>/g, (paragraph) =>
    paragraph.replace(/<w:t(?:\s[^>]*)?>/, () => {
      count++;
      return `<w:t xml:space="preserve">${escapeXml(marker)}`;
    }),
  );
  return { xml: result, count };
}

const escapeXml = (text: string) => text.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]!);
