import type { Color, PDFDocument, PDFFont, PDFPage } from 'pdf-lib';
import { footerLine } from './footers/footer-line';
import { pdfLib } from './pdf-lib';
import { UnicodeFonts } from './unicode-fonts';
import { wrapText } from './wrap-text';

export interface CertifiedDocumentLine {
  source: string;
  translation: string;
  pages: number;
  sha256: string;
}

export interface NotarizationDetails {
  notaryName: string;
  commissionNumber: string;
  jurisdiction: string;
  commissionExpiresOn: string;
  notarizedAt: Date;
}

/** What the certificate states, as printed: the domain gathers these facts (certificate-facts.ts); this file only draws them. */
export interface CertificateContent {
  company: { name: string; address: string };
  clientName: string;
  orderNumber: string;
  /** The languages' English names: "Spanish", "English". */
  languages: { from: string; to: string };
  documents: CertifiedDocumentLine[];
  /** What the order billed beside the pages on paper (D29): "24 billing pages (250 words each) for 18 document pages". */
  billed: string;
  translator: { name: string; credentials: string | null };
  date: Date;
  /** Stated only when recorded (D21). */
  notarization: NotarizationDetails | null;
  verification: { code: string; url: string };
}

/**
 * Reserves the signature in the drawn document and signs its saved bytes (the signing provider's PdfSigner); a
 * port of its own, since documents import nothing of the providers.
 */
export interface CertificateSignature {
  prepare(doc: PDFDocument, signer: string): void;
  sign(bytes: Uint8Array): Promise<Uint8Array>;
}

export const longDate = (date: Date): string =>
  date.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/**
 * The certificate of accuracy (D20) as a court clerk expects one (ATA and USCIS practice): the operator's
 * letterhead, the title, the order's particulars, the translator's statement of competence and accuracy, a table
 * of the documents with their page counts and SHA-256 fingerprints, the notarization when recorded, a signature
 * block with name, credentials and date, and the verification code with its URL. Any script shows as written;
 * the whole document is PAdES-signed by the operator's signing key in the translator's name.
 */
export async function certificatePdf(content: CertificateContent, signer: CertificateSignature): Promise<Uint8Array> {
  const sheet = await letterheadSheet(
    `Certificate of accuracy ${content.orderNumber}`,
    content.company,
    'CERTIFICATE OF TRANSLATION ACCURACY',
    allText(content),
  );
  const { doc } = sheet;
  particulars(sheet, content);
  statement(sheet, content);
  documentTable(sheet, content.documents);
  if (content.notarization) notarization(sheet, content.notarization);
  signatureBlock(sheet, content);
  verificationBox(sheet, content.verification);
  sheet.footers(`Certificate of accuracy · Order ${content.orderNumber}`, `Verification ${content.verification.code}`);
  signer.prepare(doc, content.translator.name);
  return signer.sign(await doc.save({ useObjectStreams: false }));
}

export const PAGE: [number, number] = [612, 792];
export const MARGIN = 60;
export const WIDTH = PAGE[0] - 2 * MARGIN;
/** The share of a line's width that text is wrapped to (`Sheet.lines`). */
const SUBSTITUTE_SLACK = 0.98;
const palette = () => {
  const { rgb } = pdfLib();
  return { black: rgb(0, 0, 0), grey: rgb(0.35, 0.35, 0.35), rule: rgb(0.6, 0.6, 0.6), shade: rgb(0.92, 0.92, 0.92) };
};

/** A cursor down the pages: text blocks wrap to their width and start a new page when they do not fit. */
export class Sheet {
  page: PDFPage;
  y = PAGE[1] - MARGIN;
  readonly roman: PDFFont;
  readonly bold: PDFFont;
  readonly italic: PDFFont;
  readonly mono: PDFFont;
  readonly colors: Record<'black' | 'grey' | 'rule' | 'shade', Color> = palette();

  constructor(
    readonly doc: PDFDocument,
    readonly fonts: UnicodeFonts,
  ) {
    const { StandardFonts } = pdfLib();
    this.page = doc.addPage(PAGE);
    this.roman = fonts.font(StandardFonts.TimesRoman);
    this.bold = fonts.font(StandardFonts.TimesRomanBold);
    this.italic = fonts.font(StandardFonts.TimesRomanItalic);
    this.mono = fonts.font(StandardFonts.Courier);
  }

  /** Room for `height` points on this page, or a new page. */
  need(height: number): void {
    if (this.y - height < MARGIN + 20) this.newPage();
  }

  newPage(): void {
    this.page = this.doc.addPage(PAGE);
    this.y = PAGE[1] - MARGIN;
  }

  /**
   * `text` in lines of at most `width` points. The standard fonts are not embedded, so a viewer may draw them with a
   * substitute a little wider than their metrics (poppler with Liberation Serif: Times-Italic about 1% wider): lines
   * are measured against 2% less, so that none runs past the margin whichever font draws it.
   */
  lines(text: string, font: PDFFont, size: number, width: number): string[] {
    return wrapText(text, width * SUBSTITUTE_SLACK, (line) => this.fonts.width(line, font, size));
  }

  /** A wrapped paragraph at `x` (relative to the margin), advancing the cursor. */
  paragraph(
    text: string,
    options: {
      font?: PDFFont;
      size?: number;
      x?: number;
      width?: number;
      leading?: number;
      align?: 'left' | 'center';
    } = {},
  ): void {
    const { font = this.roman, size = 11, x = 0, leading = 1.35, align = 'left' } = options;
    const width = options.width ?? WIDTH - x;
    for (const line of this.lines(text, font, size, width)) {
      this.need(size * leading);
      const offset = align === 'center' ? (width - this.fonts.width(line, font, size)) / 2 : 0;
      this.fonts.draw(this.page, line, { x: MARGIN + x + offset, y: this.y - size, size, font });
      this.y -= size * leading;
    }
  }

  text(text: string, x: number, y: number, font: PDFFont, size: number, color = this.colors.black): void {
    this.fonts.draw(this.page, text, { x, y, size, font, color });
  }

  rule(y = this.y, thickness = 0.75): void {
    this.page.drawLine({
      start: { x: MARGIN, y },
      end: { x: PAGE[0] - MARGIN, y },
      thickness,
      color: this.colors.rule,
    });
  }

  gap(points: number): void {
    this.y -= points;
  }

  /** "<left> · Page n of N · <right>" at the foot of every page, once all pages exist. */
  footers(left: string, right: string): void {
    const pages = this.doc.getPages();
    pages.forEach((page, index) => {
      const text = `${left} · Page ${index + 1} of ${pages.length} · ${right}`;
      const size = 8;
      page.drawLine({
        start: { x: MARGIN, y: 44 },
        end: { x: PAGE[0] - MARGIN, y: 44 },
        thickness: 0.5,
        color: this.colors.rule,
      });
      const line = this.lines(text, this.roman, size, WIDTH)[0] ?? '';
      this.fonts.draw(page, line, {
        x: MARGIN + (WIDTH - this.fonts.width(line, this.roman, size)) / 2,
        y: 32,
        size,
        font: this.roman,
        color: this.colors.grey,
      });
    });
  }
}

/**
 * A new document titled `title` by the operator, with fonts for `text` (any script shows as written), its first page
 * begun with the letterhead and `heading`: how the certificate, the invoice and the receipt start.
 */
export async function letterheadSheet(
  title: string,
  company: { name: string; address: string },
  heading: string,
  text: string,
): Promise<Sheet> {
  const { PDFDocument, StandardFonts } = pdfLib();
  const doc = await PDFDocument.create();
  doc.setTitle(title);
  doc.setAuthor(company.name);
  const fonts = await UnicodeFonts.forText(
    doc,
    [StandardFonts.TimesRoman, StandardFonts.TimesRomanBold, StandardFonts.TimesRomanItalic, StandardFonts.Courier],
    `${company.name}\n${company.address}\n${text}`,
  );
  const sheet = new Sheet(doc, fonts);
  letterhead(sheet, company, heading);
  return sheet;
}

/** The operator's name and address centred over a double rule, then `title`: the certificate's head, and the invoice's. */
export function letterhead(sheet: Sheet, company: { name: string; address: string }, title: string): void {
  sheet.paragraph(company.name, { font: sheet.bold, size: 17, align: 'center', leading: 1.3 });
  for (const line of company.address.split(/\n|;\s*/))
    sheet.paragraph(line, { size: 10, align: 'center', leading: 1.3 });
  sheet.gap(6);
  sheet.rule(sheet.y, 1.5);
  sheet.rule(sheet.y - 3, 0.5);
  sheet.gap(28);
  sheet.paragraph(title, { font: sheet.bold, size: 15, align: 'center' });
  sheet.gap(14);
}

function particulars(sheet: Sheet, content: CertificateContent): void {
  const rows: [string, string][] = [
    ['Client', content.clientName],
    ['Order number', content.orderNumber],
    ['Languages', `${content.languages.from} into ${content.languages.to}`],
    ['Pages', content.billed],
    ['Date of issue', longDate(content.date)],
    ['Verification code', content.verification.code],
  ];
  labelledRows(sheet, rows);
  sheet.gap(12);
}

/** "Label: value" rows, the values wrapped beside their labels: a document's particulars. */
export function labelledRows(sheet: Sheet, rows: [string, string][]): void {
  const labelWidth = 120;
  for (const [label, value] of rows) {
    const lines = sheet.lines(value, sheet.roman, 11, WIDTH - labelWidth);
    sheet.need(lines.length * 15);
    sheet.text(`${label}:`, MARGIN, sheet.y - 11, sheet.bold, 11);
    for (const line of lines) {
      sheet.text(line, MARGIN + labelWidth, sheet.y - 11, sheet.roman, 11);
      sheet.y -= 15;
    }
  }
}

function statement(sheet: Sheet, content: CertificateContent): void {
  const { translator } = content;
  const who = translator.credentials ? `${translator.name}, ${translator.credentials},` : `${translator.name},`;
  const { from, to } = content.languages;
  const plural = content.documents.length > 1;
  sheet.paragraph(
    `I, ${who} hereby certify that I am competent to translate from ${from} into ${to}, and that the attached ` +
      `translation${plural ? 's' : ''} of the document${plural ? 's' : ''} listed below ${plural ? 'are complete and accurate translations' : 'is a complete and accurate translation'} ` +
      `of the original${plural ? 's' : ''}, to the best of my knowledge and belief.`,
    { size: 11.5 },
  );
  sheet.gap(6);
  const footer = footerLine({ orderNumber: content.orderNumber, code: content.verification.code }, 'n', 'N');
  sheet.paragraph(
    `Every page of each translation bears the footer "${footer}". ` +
      'The SHA-256 fingerprint below identifies each delivered translation file exactly: any change to the file changes it.',
    { size: 10, font: sheet.italic },
  );
  sheet.gap(14);
}

/** No. | Source document | Translation | Pages | SHA-256, with the header row repeated on every page it spans. */
function documentTable(sheet: Sheet, documents: CertifiedDocumentLine[]): void {
  const columns = [
    { title: 'No.', width: 26 },
    { title: 'Source document', width: 140 },
    { title: 'Translation', width: 140 },
    { title: 'Pages', width: 36 },
    { title: 'SHA-256 of the translation', width: WIDTH - 342 },
  ];
  const pad = 4;
  const size = 9.5;
  const hashSize = 7;
  const header = () => tableHeader(sheet, columns, size);
  header();
  documents.forEach((document, index) => {
    const cells = [
      { lines: [`${index + 1}`], font: sheet.roman, size },
      { lines: sheet.lines(document.source, sheet.roman, size, columns[1].width - 2 * pad), font: sheet.roman, size },
      {
        lines: sheet.lines(document.translation, sheet.roman, size, columns[2].width - 2 * pad),
        font: sheet.roman,
        size,
      },
      { lines: [`${document.pages}`], font: sheet.roman, size },
      { lines: chunk(document.sha256, 32), font: sheet.mono, size: hashSize },
    ];
    const height = Math.max(...cells.map((cell) => cell.lines.length * cell.size * 1.3)) + 2 * pad;
    if (sheet.y - height < MARGIN + 20) {
      sheet.newPage();
      header();
    }
    let x = MARGIN;
    cells.forEach((cell, column) => {
      cell.lines.forEach((line, i) =>
        sheet.text(line, x + pad, sheet.y - pad - cell.size - i * cell.size * 1.3, cell.font, cell.size),
      );
      x += columns[column].width;
    });
    sheet.y -= height;
    sheet.rule(sheet.y, 0.5);
  });
  sheet.gap(16);
}

/**
 * A shaded row of column titles over a rule, with room below it for a first row (or a new page). With `amountsLast`
 * the last title is aligned right, over the amounts its column holds.
 */
export function tableHeader(
  sheet: Sheet,
  columns: { title: string; width: number }[],
  size: number,
  amountsLast = false,
): void {
  const pad = 4;
  sheet.need(18 + 30);
  sheet.page.drawRectangle({ x: MARGIN, y: sheet.y - 16, width: WIDTH, height: 16, color: sheet.colors.shade });
  let x = MARGIN;
  columns.forEach((column, index) => {
    const right = amountsLast && index === columns.length - 1;
    const offset = right ? column.width - 2 * pad - sheet.fonts.width(column.title, sheet.bold, size) : 0;
    sheet.text(column.title, x + pad + offset, sheet.y - 11.5, sheet.bold, size);
    x += column.width;
  });
  sheet.y -= 16;
  sheet.rule();
}

function notarization(sheet: Sheet, details: NotarizationDetails): void {
  sheet.need(60);
  sheet.paragraph('Notarization', { font: sheet.bold, size: 11.5 });
  sheet.paragraph(
    `This certificate was notarized on ${longDate(details.notarizedAt)} before ${details.notaryName}, Notary Public, ${details.jurisdiction}, ` +
      `commission no. ${details.commissionNumber}, commission expires ${longDate(new Date(`${details.commissionExpiresOn}T00:00:00Z`))}.`,
    { size: 11 },
  );
  sheet.gap(12);
}

function signatureBlock(sheet: Sheet, content: CertificateContent): void {
  sheet.need(110);
  sheet.gap(26);
  sheet.text(
    `Digitally signed by ${content.translator.name}`,
    MARGIN,
    sheet.y - 11,
    sheet.italic,
    10,
    sheet.colors.grey,
  );
  sheet.y -= 16;
  sheet.page.drawLine({ start: { x: MARGIN, y: sheet.y }, end: { x: MARGIN + 260, y: sheet.y }, thickness: 0.75 });
  sheet.page.drawLine({
    start: { x: MARGIN + 330, y: sheet.y },
    end: { x: MARGIN + WIDTH, y: sheet.y },
    thickness: 0.75,
  });
  const top = sheet.y;
  sheet.text(longDate(content.date), MARGIN + 330, sheet.y + 4, sheet.roman, 11);
  sheet.text('Date', MARGIN + 330, top - 12, sheet.roman, 9, sheet.colors.grey);
  sheet.y -= 3;
  sheet.paragraph(content.translator.name, { font: sheet.bold, size: 11, width: 260 });
  if (content.translator.credentials) sheet.paragraph(content.translator.credentials, { size: 10, width: 260 });
  sheet.paragraph(`Translator, for ${content.company.name}`, { size: 10, width: 260 });
  sheet.gap(18);
}

function verificationBox(sheet: Sheet, verification: CertificateContent['verification']): void {
  const lines = [
    { text: `Verify this certificate online: ${verification.url}`, font: sheet.bold },
    { text: `Verification code: ${verification.code}`, font: sheet.roman },
    {
      text: 'The page shows the documents it covers, their page counts and SHA-256 fingerprints, and no other client data.',
      font: sheet.italic,
    },
  ].flatMap(({ text, font }) => sheet.lines(text, font, 9.5, WIDTH - 20).map((line) => ({ line, font })));
  const height = lines.length * 13 + 14;
  sheet.need(height);
  sheet.page.drawRectangle({
    x: MARGIN,
    y: sheet.y - height,
    width: WIDTH,
    height,
    borderColor: sheet.colors.rule,
    borderWidth: 0.75,
  });
  let y = sheet.y - 8;
  for (const { line, font } of lines) {
    sheet.text(line, MARGIN + 10, y - 9.5, font, 9.5);
    y -= 13;
  }
  sheet.y -= height;
}

const chunk = (text: string, size: number) => text.match(new RegExp(`.{1,${size}}`, 'g')) ?? [''];

function allText(content: CertificateContent): string {
  return [
    content.clientName,
    content.translator.name,
    content.translator.credentials ?? '',
    ...content.documents.flatMap((document) => [document.source, document.translation]),
    content.notarization ? Object.values(content.notarization).join(' ') : '',
  ].join('\n');
}
