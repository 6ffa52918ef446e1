import { createWriteStream } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { PDFDocument, StandardFonts, type PDFFont } from 'pdf-lib';
import { ZipFile as ZipWriter } from 'yazl';
import { TEXT_PART } from '../../domain/files/analysis/docx-words';
import { DOCX, PDF } from '../../domain/files/analysis/formats';
import { entries, openZip, readEntry } from '../../domain/files/zip-reader';
import { UntranslatableError, type TranslationEngine, type TranslationJob } from './translation-engine';

/**
 * The sandbox engine (D11): deterministic and clearly marked, in the same format as the input. A DOCX keeps
 * every part, paragraph and table, with each paragraph's text prefixed by the target language; a PDF keeps
 * its page count, each page carrying its text under a marker line. Images and text-less documents are
 * untranslatable.
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
    const { extractText, getDocumentProxy } = await import('unpdf');
    const source = await getDocumentProxy(new Uint8Array(await readFile(job.path)));
    const { text } = await extractText(source, { mergePages: false });
    if (!text.some((page) => page.trim())) throw new UntranslatableError('The document has no text layer to translate.');
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    for (const pageText of text) {
      const page = doc.addPage([612, 792]);
      let y = 750;
      for (const line of [`${marker}Sandbox translation (${job.sourceLanguage} -> ${job.targetLanguage})`, ...wrap(pageText, 95)]) {
        if (y < 40) break;
        page.drawText(encodable(font, line), { x: 40, y, size: 10, font });
        y -= 14;
      }
    }
    await writeFile(job.outputPath, await doc.save());
  }
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

/** The standard PDF fonts cover Latin-1 (accents included); other characters become "?" in the sandbox output. */
function encodable(font: PDFFont, text: string): string {
  return [...text].map((char) => {
    try {
      font.encodeText(char);
      return char;
    } catch {
      return '?';
    }
  }).join('');
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      if (line && line.length + word.length + 1 > width) {
        lines.push(line);
        line = word;
      } else line = line ? `${line} ${word}` : word;
    }
    if (line) lines.push(line);
  }
  return lines;
}
