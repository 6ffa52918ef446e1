import { SaxesParser } from 'saxes';
import type { Entry, ZipFile } from 'yauzl';
import { TEXT_PART } from '../../../documents/docx-parts';
import { entries, openZip } from '../../../documents/zip-reader';
import { AnalysisLimitError, counted, type AnalysisResult } from './analysis-result';
import { countWords } from './word-count';

export interface DocxLimits {
  maxEntries: number;
  /** Total inflated bytes of the parts read. */
  maxUnpackedBytes: number;
  /** Inflated / compressed size of one part: real WordprocessingML stays far below; bombs go far above. */
  maxCompressionRatio: number;
}


/**
 * Counts the words of a DOCX without holding it in memory: the zip is read entry by entry, each XML part
 * streamed through a SAX parser, and words counted paragraph by paragraph. Limits are checked against the
 * declared sizes first and the inflated bytes as they come, so a zip bomb stops early.
 */
export async function docxWords(path: string, limits: DocxLimits): Promise<AnalysisResult> {
  const zip = await openZip(path);
  try {
    if (zip.entryCount > limits.maxEntries) throw new AnalysisLimitError('too_large_unpacked');
    let words = 0;
    let unpacked = 0;
    for await (const entry of entries(zip)) {
      if (!TEXT_PART.test(entry.fileName)) continue;
      checkDeclaredSize(entry, limits, unpacked);
      words += await partWords(zip, entry, (bytes) => {
        unpacked += bytes;
        if (unpacked > limits.maxUnpackedBytes) throw new AnalysisLimitError('too_large_unpacked');
      });
    }
    return counted(words);
  } finally {
    zip.close();
  }
}

function checkDeclaredSize(entry: Entry, limits: DocxLimits, unpackedSoFar: number): void {
  const ratio = entry.uncompressedSize / Math.max(1, entry.compressedSize);
  if (unpackedSoFar + entry.uncompressedSize > limits.maxUnpackedBytes || ratio > limits.maxCompressionRatio) {
    throw new AnalysisLimitError('too_large_unpacked');
  }
}

function partWords(zip: ZipFile, entry: Entry, onBytes: (bytes: number) => void): Promise<number> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => {
      if (error || !stream) return reject(error);
      const counter = new ParagraphWordCounter();
      stream.on('data', (chunk: Buffer) => {
        try {
          onBytes(chunk.length);
          counter.write(chunk.toString('utf8'));
        } catch (failure) {
          stream.destroy();
          reject(failure);
        }
      });
      stream.on('error', reject);
      stream.on('end', () => {
        try {
          resolve(counter.end());
        } catch (failure) {
          reject(failure);
        }
      });
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
