import { PDFDocument, StandardFonts, type PDFFont } from 'pdf-lib';
import type { PdfSigner } from '../../providers/signing/pdf-signer';

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
 * The certificate of accuracy (D10) as a one-page PDF: order, languages, documents, the statement, signer and date,
 * digitally signed (PAdES) by the operator's signing key.
 */
export async function certificatePdf(content: CertificateContent, signer: PdfSigner): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(`Certificate of accuracy ${content.orderNumber}`);
  const regular = await doc.embedFont(StandardFonts.TimesRoman);
  const bold = await doc.embedFont(StandardFonts.TimesRomanBold);
  const page = doc.addPage([612, 792]);
  let y = 720;
  const line = (text: string, font: PDFFont = regular, size = 12) => {
    page.drawText(latin1(text), { x: 72, y, size, font });
    y -= size + 8;
  };
  const from = languageNames.of(content.sourceLanguage)!;
  const to = languageNames.of(content.targetLanguage)!;
  line('Certificate of Accuracy', bold, 20);
  y -= 10;
  line(`Order ${content.orderNumber}`, bold);
  line(`Languages: ${from} into ${to}`);
  y -= 6;
  line('Documents:', bold);
  for (const document of content.documents) line(`- ${document.source}  ->  ${document.translation}`);
  y -= 10;
  for (const sentence of [
    `I certify that I am competent to translate from ${from} into ${to}, and that the attached`,
    'translation of the documents listed above is complete and accurate to the best of my knowledge and belief.',
  ]) line(sentence, regular, 11);
  if (content.notarized) line('Notarization was ordered and is recorded for this certificate.', regular, 11);
  y -= 30;
  line(`Signed: ${content.signer}`);
  line(`Date: ${content.date.toISOString().slice(0, 10)}`);
  signer.prepare(doc, content.signer);
  return signer.sign(await doc.save({ useObjectStreams: false }));
}

/** The standard PDF fonts encode Latin-1; anything else is shown as "?". */
const latin1 = (text: string) => text.replace(/[^\u0000-\u00ff]/g, '?');
