import { writeFile } from 'node:fs/promises';
import { TEXT_PART } from './docx-parts';
import { DOCX, PDF } from './formats';
import { pdfLib } from './pdf-lib';
import { openPdf, pageTexts, type PdfDocument } from './pdf-text';
import { UnicodeFonts } from './unicode-fonts';
import { wrapText } from './wrap-text';
import { escapeXml, xmlRewrite, type XmlRewriter, type XmlTag } from './xml-rewrite';
import { rewriteZip, type ZipLimits } from './zip-rewrite';
import { UntranslatableError } from '../shared/errors';

/** A document to translate, as a translation engine is handed it (D11). */
export interface TranslationFiles {
  /** A local copy of the source document. */
  path: string;
  mimeType: string;
  sourceLanguage: string;
  targetLanguage: string;
  /** Where the translation is written, in the same format as the source. */
  outputPath: string;
}

/**
 * The sandbox engine's translation (D11): deterministic and clearly marked, in the same format as the input. A
 * DOCX keeps every part, paragraph and table, with each paragraph's text prefixed by the target language; a PDF
 * keeps its page count and page sizes, each page carrying its text, in whatever script, under a marker line.
 * Images and text-less documents are untranslatable. It parses the client's document, so it runs only in the
 * document sandbox's child process (src/documents/sandbox/).
 */
export async function writeSandboxTranslation(job: TranslationFiles, limits: ZipLimits): Promise<void> {
  const marker = `[${job.targetLanguage.toUpperCase()}] `;
  if (job.mimeType === DOCX) return translateDocx(job, marker, limits);
  if (job.mimeType === PDF) return translatePdf(job, marker);
  throw new UntranslatableError('The document is an image: there is no text to translate.');
}

async function translateDocx(job: TranslationFiles, marker: string, limits: ZipLimits): Promise<void> {
  const markers: ParagraphMarker[] = [];
  await rewriteZip(job.path, job.outputPath, limits, {
    rewrite(name) {
      if (!TEXT_PART.test(name)) return undefined;
      const paragraphs = new ParagraphMarker(marker);
      markers.push(paragraphs);
      return xmlRewrite(paragraphs);
    },
  });
  if (!markers.some((paragraphs) => paragraphs.count > 0))
    throw new UntranslatableError('The document has no text to translate.');
}

async function translatePdf(job: TranslationFiles, marker: string): Promise<void> {
  const source = await openPdf(job.path);
  try {
    await drawPdf(job, marker, source);
  } finally {
    await source.destroy();
  }
}

async function drawPdf(job: TranslationFiles, marker: string, source: PdfDocument): Promise<void> {
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
    const { size, lines } = fitToPage(page.getSize(), [heading, pageText], (line, size) =>
      fonts.width(line, font, size),
    );
    let y = page.getHeight() - MARGIN - size;
    for (const line of lines) {
      fonts.draw(page, line, { x: MARGIN, y, size, font });
      y -= size * LEADING;
    }
  }
  await writeFile(job.outputPath, await doc.save());
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
  const layout = (size: number) =>
    paragraphs.flatMap((text) => wrapText(text, page.width - 2 * MARGIN, (line) => measure(line, size)));
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

/**
 * Prefixes the first text run of every paragraph that has one, keeping all markup as it was. A paragraph inside
 * another (a text box) is a paragraph of its own.
 */
class ParagraphMarker implements XmlRewriter {
  count = 0;
  private readonly paragraphs: boolean[] = []; // open paragraphs, innermost last: whether each is marked yet

  constructor(private readonly marker: string) {}

  tag(tag: XmlTag): string {
    if (tag.name === 'w:p' && !tag.selfClosing) {
      if (tag.closing) this.paragraphs.pop();
      else this.paragraphs.push(false);
    } else if (tag.name === 'w:t' && !tag.closing && !tag.selfClosing && this.paragraphs.at(-1) === false) {
      this.paragraphs[this.paragraphs.length - 1] = true;
      this.count++;
      return `<w:t xml:space="preserve">${escapeXml(this.marker)}`;
    }
    return tag.raw;
  }
}
