import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { PdfSigner } from '../../providers/signing/pdf-signer';
import { UnicodeFonts } from '../files/pdf/unicode-fonts';
import { wrapText } from '../files/pdf/wrap-text';

export interface CertificateContent {
  orderNumber: string;
  sourceLanguage: string;
  targetLanguage: string;
  documents: { source: string; translation: string }[];
  signer: string;
  date: Date;
  notarized: boolean;
}

const languageNames = new Intl.DisplayNames('en', { type: 'language', fallback: 'code' });

/**
 * The certificate of accuracy (D10) as a PDF (one page unless the document list runs over): order, languages, documents, the statement, signer and date,
 * digitally signed (PAdES) by the operator's signing key.
 */
export async function certificatePdf(content: CertificateContent, signer: PdfSigner): Promise<Uint8Array> {
  const from = languageNames.of(content.sourceLanguage)!;
  const to = languageNames.of(content.targetLanguage)!;
  const lines: Line[] = [
    { text: 'Certificate of Accuracy', bold: true, size: 20 },
    { text: `Order ${content.orderNumber}`, bold: true, gapBefore: 10 },
    { text: `Languages: ${from} into ${to}` },
    { text: 'Documents:', bold: true, gapBefore: 6 },
    ...content.documents.map((document) => ({ text: `- ${document.source} -> ${document.translation}` })),
    { text: `I certify that I am competent to translate from ${from} into ${to}, and that the attached translation of the documents listed above is complete and accurate to the best of my knowledge and belief.`, size: 11, gapBefore: 10 },
    ...(content.notarized ? [{ text: 'Notarization was ordered and is recorded for this certificate.', size: 11 }] : []),
    { text: `Signed: ${content.signer}`, gapBefore: 30 },
    { text: `Date: ${content.date.toISOString().slice(0, 10)}` },
  ];

  const doc = await PDFDocument.create();
  doc.setTitle(`Certificate of accuracy ${content.orderNumber}`);
  const fonts = await UnicodeFonts.forText(doc, [StandardFonts.TimesRoman, StandardFonts.TimesRomanBold], lines.map((line) => line.text).join('\n'));
  let page = doc.addPage(LETTER);
  let y = TOP;
  for (const { text, bold, size = 12, gapBefore = 0 } of lines) {
    y -= gapBefore;
    const font = fonts.font(bold ? StandardFonts.TimesRomanBold : StandardFonts.TimesRoman);
    for (const wrapped of wrapText(text, LETTER[0] - 2 * MARGIN, (candidate) => fonts.width(candidate, font, size))) {
      if (y < MARGIN) {
        page = doc.addPage(LETTER);
        y = TOP;
      }
      fonts.draw(page, wrapped, { x: MARGIN, y, size, font });
      y -= size + 8;
    }
  }
  signer.prepare(doc, content.signer);
  return signer.sign(await doc.save({ useObjectStreams: false }));
}

const LETTER: [number, number] = [612, 792];
const MARGIN = 72;
const TOP = LETTER[1] - MARGIN;

interface Line {
  text: string;
  bold?: boolean;
  size?: number;
  gapBefore?: number;
}
