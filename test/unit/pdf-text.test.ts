import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fontkit from '@pdf-lib/fontkit';
import { PDFDict, PDFDocument, PDFName, StandardFonts } from 'pdf-lib';
import { openPdf, pageTexts } from '../../src/documents/pdf-text';
import { UnicodeFonts } from '../../src/documents/unicode-fonts';
import { woffToSfnt } from '../../src/documents/woff-to-sfnt';
import { wrapText } from '../../src/documents/wrap-text';

async function onePagePdf(lines: string[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const fonts = await UnicodeFonts.forText(doc, [StandardFonts.Helvetica], lines.join('\n'));
  const page = doc.addPage([612, 792]);
  lines.forEach((line, i) =>
    fonts.draw(page, line, { x: 40, y: 700 - i * 20, size: 12, font: fonts.font(StandardFonts.Helvetica) }),
  );
  return doc.save();
}

async function textOf(bytes: Uint8Array): Promise<string> {
  const { extractText, getDocumentProxy } = await import('unpdf');
  return (await extractText(await getDocumentProxy(bytes), { mergePages: true })).text;
}

async function fontNames(bytes: Uint8Array): Promise<string[]> {
  const doc = await PDFDocument.load(bytes);
  return doc.context
    .enumerateIndirectObjects()
    .map(([, object]) => object)
    .filter(
      (object): object is PDFDict => object instanceof PDFDict && object.get(PDFName.of('Type')) === PDFName.of('Font'),
    )
    .map((font) => font.get(PDFName.of('BaseFont'))!.toString());
}

describe('UnicodeFonts', () => {
  it('writes accents, CJK, Hangul, Cyrillic and Greek so that a reader extracts them as written', async () => {
    const lines = [
      'Declaración jurada de Ana María Núñez',
      '出生证明 第一条 日本語の契約書 한국어 계약서',
      'Свидетельство о рождении · Πιστοποιητικό',
    ];
    const text = await textOf(await onePagePdf(lines));
    for (const line of lines) expect(text).toContain(line);
  });

  it('embeds the fallback font only when the text needs it', async () => {
    expect(await fontNames(await onePagePdf(['Página uno: año fiscal, €100']))).toEqual(['/Helvetica']);
    const names = await fontNames(await onePagePdf(['Página 第一条']));
    expect(names).toContain('/Helvetica');
    expect(names.some((name) => /Unifont/.test(name))).toBe(true);
  });

  it('shows a character no font has (outside the Basic Multilingual Plane) as "?"', async () => {
    expect(await textOf(await onePagePdf(['Seal 😀 here 合同']))).toContain('Seal ? here 合同');
  });

  it('measures mixed runs as the sum of their fonts', async () => {
    const doc = await PDFDocument.create();
    const fonts = await UnicodeFonts.forText(doc, [StandardFonts.Helvetica], 'ab合同');
    const helvetica = fonts.font(StandardFonts.Helvetica);
    const runs = fonts.runs('ab合同', helvetica);
    expect(runs.map((run) => run.text)).toEqual(['ab', '合同']);
    expect(runs[1].font).not.toBe(helvetica);
    expect(fonts.width('ab合同', helvetica, 10)).toBeCloseTo(
      helvetica.widthOfTextAtSize('ab', 10) + runs[1].font.widthOfTextAtSize('合同', 10),
    );
    expect(() => fonts.font(StandardFonts.Courier)).toThrow(/not embedded/);
  });
});

describe('pageTexts', () => {
  it('reads the text layer of each page in order, one string a page', async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    for (const line of ['First page', '', 'Third page'])
      doc.addPage([300, 300]).drawText(line, { x: 20, y: 200, size: 12, font });
    const dir = mkdtempSync(join(tmpdir(), 'pdf-text-'));
    try {
      const path = join(dir, 'three.pdf');
      writeFileSync(path, await doc.save());
      const pdf = await openPdf(path);
      const texts: string[] = [];
      try {
        for await (const text of pageTexts(pdf)) texts.push(text.trim());
      } finally {
        await pdf.destroy();
      }
      expect(texts).toEqual(['First page', '', 'Third page']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('woffToSfnt', () => {
  const woff = readFileSync(require.resolve('@fontsource/unifont/files/unifont-latin-400-normal.woff'));

  it('unpacks a WOFF into a font with the same glyphs and mapping', async () => {
    const packed = fontkit.create(woff);
    const plain = fontkit.create(await woffToSfnt(woff));
    expect(plain.numGlyphs).toBe(packed.numGlyphs);
    for (const char of 'aÑ合한Я')
      expect(plain.glyphForCodePoint(char.codePointAt(0)!).id).toBe(packed.glyphForCodePoint(char.codePointAt(0)!).id);
    expect(plain.glyphForCodePoint('合'.codePointAt(0)!).path.toSVG()).toBe(
      packed.glyphForCodePoint('合'.codePointAt(0)!).path.toSVG(),
    );
  });

  it('refuses anything that is not a WOFF 1.0 font', async () => {
    await expect(
      woffToSfnt(Buffer.from('wOF2 and then some more bytes to pass the header length check....')),
    ).rejects.toThrow('Not a WOFF 1.0 font.');
    await expect(woffToSfnt(Buffer.alloc(3))).rejects.toThrow('Not a WOFF 1.0 font.');
  });
});

describe('wrapText', () => {
  const measure = (line: string) => [...line].length;

  it('breaks at spaces, keeping every line within the width', () => {
    expect(wrapText('the quick brown fox jumps over the lazy dog', 10, measure)).toEqual([
      'the quick',
      'brown fox',
      'jumps over',
      'the lazy',
      'dog',
    ]);
  });

  it('breaks text without spaces (CJK) between characters, and keeps paragraphs apart', () => {
    expect(wrapText('一二三四五六七八九十一二\nend', 5, measure)).toEqual(['一二三四五', '六七八九十', '一二', 'end']);
  });

  it('splits a word wider than the line and goes on after it', () => {
    expect(wrapText('a abcdefghij b', 4, measure)).toEqual(['a', 'abcd', 'efgh', 'ij b']);
  });
});
