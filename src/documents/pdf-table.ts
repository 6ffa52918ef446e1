import { MARGIN, type Sheet, tableHeader, WIDTH } from './certificate-pdf';

/** A column of a drawn table: its title and width in points; the last column is the amounts', aligned right. */
export interface Column {
  title: string;
  width: number;
}

/**
 * Rows of text under a shaded header, each cell wrapped in its column, the header repeated on every page the table
 * spans: the invoice's lines and the receipt's.
 */
export function rowTable(sheet: Sheet, columns: Column[], rows: string[][]): void {
  const pad = 4;
  const size = 9.5;
  const header = () => tableHeader(sheet, columns, size, true);
  header();
  for (const row of rows) {
    const cells = row.map((text, column) => sheet.lines(text, sheet.roman, size, columns[column].width - 2 * pad));
    const height = Math.max(...cells.map((lines) => lines.length * size * 1.3)) + 2 * pad;
    if (sheet.y - height < MARGIN + 20) {
      sheet.newPage();
      header();
    }
    let x = MARGIN;
    cells.forEach((lines, column) => {
      lines.forEach((line, i) => {
        const right = column === columns.length - 1;
        const offset = right ? columns[column].width - 2 * pad - sheet.fonts.width(line, sheet.roman, size) : 0;
        sheet.text(line, x + pad + offset, sheet.y - pad - size - i * size * 1.3, sheet.roman, size);
      });
      x += columns[column].width;
    });
    sheet.y -= height;
    sheet.rule(sheet.y, 0.5);
  }
  sheet.gap(10);
}

/** Labelled amounts at the right under a table (`strong` ones in bold): the totals of an invoice or a receipt. */
export function totalRows(sheet: Sheet, rows: [label: string, value: string, strong: boolean][]): void {
  sheet.need(rows.length * 16 + 10);
  for (const [label, value, strong] of rows) {
    const font = strong ? sheet.bold : sheet.roman;
    sheet.text(label, MARGIN + WIDTH - 200, sheet.y - 11, font, 11);
    sheet.text(value, MARGIN + WIDTH - 4 - sheet.fonts.width(value, font, 11), sheet.y - 11, font, 11);
    sheet.y -= 16;
  }
  sheet.gap(18);
}
