import { readFile } from 'node:fs/promises';
import type { Color, PDFDocument, PDFFont, PDFPage, StandardFonts } from 'pdf-lib';
import { woffToSfnt } from './woff-to-sfnt';

/**
 * fontkit, loaded by the first document that needs the fallback: its Unicode tables take longer to load than all
 * of pdf-lib, and most processes (and most Latin-only documents) never need them.
 */
const fontkit = () => require('@pdf-lib/fontkit') as typeof import('@pdf-lib/fontkit');

/**
 * GNU Unifont covers the whole Basic Multilingual Plane (Latin, Greek, Cyrillic, Hebrew, Arabic, CJK, kana,
 * Hangul...) in one file, so one fallback serves every language we translate. Loaded once per process.
 */
interface FallbackFont {
  bytes: Buffer;
  covers: (char: string) => boolean;
}
let unifont: Promise<FallbackFont> | undefined;
function fallbackFont(): Promise<FallbackFont> {
  unifont ??= (async () => {
    const bytes = await woffToSfnt(
      await readFile(require.resolve('@fontsource/unifont/files/unifont-latin-400-normal.woff')),
    );
    const font = fontkit().create(bytes);
    return { bytes, covers: (char: string) => font.hasGlyphForCodePoint(char.codePointAt(0)!) };
  })();
  return unifont;
}

export interface TextRun {
  text: string;
  font: PDFFont;
}

/**
 * Writes any Unicode text into a PDF: each character in the requested standard font when its encoding has it
 * (Latin-1 with accents), otherwise in the embedded Unifont subset; a character neither has becomes "?". The
 * fallback is embedded only when the document's text needs it, so Latin-only PDFs stay as small as before.
 */
export class UnicodeFonts {
  private readonly encodable = new Map<PDFFont, Map<string, boolean>>();

  private fallback: { font: PDFFont; covers: (char: string) => boolean } | undefined;

  private constructor(private readonly standardFonts: Map<StandardFonts, PDFFont>) {}

  /**
   * Embeds the standard fonts into `doc`, and the fallback too if any character of `text` (everything the
   * document will show) needs it.
   */
  static async forText(doc: PDFDocument, standard: StandardFonts[], text: string): Promise<UnicodeFonts> {
    const fonts = new UnicodeFonts(
      new Map(await Promise.all(standard.map(async (name) => [name, await doc.embedFont(name)] as const))),
    );
    const standardFonts = [...fonts.standardFonts.values()];
    const missing = [...new Set(text.replace(/[\s\p{Cc}]/gu, ''))].filter(
      (char) => !standardFonts.some((font) => fonts.canEncode(font, char)),
    );
    if (missing.length === 0) return fonts;
    const fallback = await fallbackFont();
    if (missing.some(fallback.covers)) {
      doc.registerFontkit(fontkit());
      fonts.fallback = { font: await doc.embedFont(fallback.bytes, { subset: true }), covers: fallback.covers };
    }
    return fonts;
  }

  /** One of the standard fonts embedded by `forText`. */
  font(name: StandardFonts): PDFFont {
    const font = this.standardFonts.get(name);
    if (!font) throw new Error(`${name} was not embedded.`);
    return font;
  }

  /** `text` split into runs that share a font. */
  runs(text: string, font: PDFFont): TextRun[] {
    const runs: TextRun[] = [];
    for (const original of text) {
      const { char, font: chosen } = this.fontFor(original, font);
      const last = runs.at(-1);
      if (last?.font === chosen) last.text += char;
      else runs.push({ text: char, font: chosen });
    }
    return runs;
  }

  width(text: string, font: PDFFont, size: number): number {
    return this.runs(text, font).reduce((sum, run) => sum + run.font.widthOfTextAtSize(run.text, size), 0);
  }

  draw(
    page: PDFPage,
    text: string,
    options: { x: number; y: number; size: number; font: PDFFont; color?: Color },
  ): void {
    let x = options.x;
    for (const run of this.runs(text, options.font)) {
      page.drawText(run.text, { ...options, x, font: run.font });
      x += run.font.widthOfTextAtSize(run.text, options.size);
    }
  }

  private fontFor(char: string, font: PDFFont): { char: string; font: PDFFont } {
    if (this.canEncode(font, char)) return { char, font };
    if (this.fallback?.covers(char)) return { char, font: this.fallback.font };
    return { char: '?', font };
  }

  private canEncode(font: PDFFont, char: string): boolean {
    let known = this.encodable.get(font);
    if (!known) this.encodable.set(font, (known = new Map<string, boolean>()));
    let answer = known.get(char);
    if (answer === undefined) {
      try {
        font.encodeText(char);
        answer = true;
      } catch {
        answer = false;
      }
      known.set(char, answer);
    }
    return answer;
  }
}
