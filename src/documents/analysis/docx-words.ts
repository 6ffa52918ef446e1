import { StringDecoder } from 'node:string_decoder';
import { SaxesParser } from 'saxes';
import type { Entry, ZipFile } from 'yauzl';
import { TEXT_PART } from '../docx-parts';
import { entries, openZip } from '../zip-reader';
import type { ZipLimits } from '../zip-rewrite';
import { AnalysisLimitError, counted, type AnalysisResult } from './analysis-result';
import { countWords } from './word-count';

/**
 * Counts the words of a DOCX without holding it in memory: the zip is read entry by entry, each XML part
 * streamed through a SAX parser, and words counted paragraph by paragraph. Limits are checked against the
 * declared sizes first and the inflated bytes as they come, so a zip bomb stops early.
 */
export async function docxWords(path: string, limits: ZipLimits): Promise<AnalysisResult> {
  const zip = await openZip(path);
  try {
    if (zip.entryCount > limits.maxEntries) throw new AnalysisLimitError('too_large_unpacked');
    let words = 0;
    let documentPages: number | null = null;
    let declared = 0;
    let unpacked = 0;
    for await (const entry of entries(zip)) {
      // Every entry's declared size counts, media included: a document that cannot be translated or stamped
      // within the limits is refused here, before anyone pays for it.
      declared += entry.uncompressedSize;
      checkDeclaredSize(entry, limits, declared);
      const onBytes = (bytes: number) => {
        unpacked += bytes;
        if (unpacked > limits.maxUnpackedBytes) throw new AnalysisLimitError('too_large_unpacked');
      };
      if (entry.fileName === PROPERTIES_PART) documentPages = await savedPageCount(zip, entry, onBytes);
      else if (TEXT_PART.test(entry.fileName)) words += await partWords(zip, entry, onBytes);
    }
    return counted(words, { documentPages, scannedPages: 0 });
  } finally {
    zip.close();
  }
}

function checkDeclaredSize(entry: Entry, limits: ZipLimits, declaredSoFar: number): void {
  const ratio = entry.uncompressedSize / Math.max(1, entry.compressedSize);
  if (declaredSoFar > limits.maxUnpackedBytes || ratio > limits.maxCompressionRatio) {
    throw new AnalysisLimitError('too_large_unpacked');
  }
}

/** Word's own properties: the page count it saved, which only Word's layout knows (D29). */
const PROPERTIES_PART = 'docProps/app.xml';
const MAX_PROPERTIES_BYTES = 64 * 1024;

/** The `<Pages>` Word saved, or null when it saved none (other writers often leave it out). */
async function savedPageCount(zip: ZipFile, entry: Entry, onBytes: (bytes: number) => void): Promise<number | null> {
  if (entry.uncompressedSize > MAX_PROPERTIES_BYTES) return null;
  let xml = '';
  await readEntry(zip, entry, (chunk) => {
    onBytes(chunk.length);
    xml += chunk.toString('utf8');
  });
  const pages = Number(/<Pages>\s*(\d{1,6})\s*<\/Pages>/.exec(xml)?.[1] ?? 0);
  return pages > 0 ? pages : null;
}

async function partWords(zip: ZipFile, entry: Entry, onBytes: (bytes: number) => void): Promise<number> {
  const counter = new ParagraphWordCounter();
  const decoder = new StringDecoder('utf8'); // a character cut by a chunk boundary is decoded whole
  await readEntry(zip, entry, (chunk) => {
    onBytes(chunk.length);
    counter.write(decoder.write(chunk));
  });
  counter.write(decoder.end());
  return counter.end();
}

/** Streams one entry's inflated bytes to `onChunk`; a throw from it stops the stream and rejects. */
function readEntry(zip: ZipFile, entry: Entry, onChunk: (chunk: Buffer) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => {
      if (error) return reject(error);
      stream.on('data', (chunk: Buffer) => {
        try {
          onChunk(chunk);
        } catch (failure) {
          stream.destroy();
          reject(failure);
        }
      });
      stream.on('error', reject);
      stream.on('end', () => resolve());
    });
  });
}

/**
 * Text is the content of `w:t` runs. Runs of one paragraph join without spaces (a word may be split across
 * runs); tabs and breaks are spaces; paragraphs end words. `mc:Fallback` repeats text boxes for old readers
 * and is skipped, as are deleted text and field codes (they are not `w:t`).
 */
class ParagraphWordCounter {
  private readonly parser = new SaxesParser({ xmlns: false });
  private paragraph = '';
  private inText = 0;
  private inFallback = 0;
  private words = 0;

  constructor() {
    this.parser.on('opentag', (tag) => {
      if (tag.name === 'mc:Fallback') this.inFallback++;
      else if (tag.name === 'w:t' && !tag.isSelfClosing) this.inText++;
      else if (tag.name === 'w:tab' || tag.name === 'w:br' || tag.name === 'w:cr') this.paragraph += ' ';
    });
    this.parser.on('closetag', (tag) => {
      if (tag.name === 'mc:Fallback') this.inFallback--;
      else if (tag.name === 'w:t' && !tag.isSelfClosing) this.inText--;
      else if (tag.name === 'w:p') this.flush();
    });
    this.parser.on('text', (text) => {
      if (this.inText > 0 && this.inFallback === 0) this.paragraph += text;
    });
  }

  write(xml: string): void {
    this.parser.write(xml);
  }

  end(): number {
    this.parser.close();
    this.flush();
    return this.words;
  }

  private flush(): void {
    if (this.paragraph) this.words += countWords(this.paragraph);
    this.paragraph = '';
  }
}
