import { createWriteStream } from 'node:fs';
import { ZipFile as ZipWriter } from 'yazl';
import { entries, openZip, readEntry } from '../../documents/zip-reader';

const FOOTER_PART = 'word/certified-footer.xml';
const RELATIONSHIP_ID = 'rIdCertifiedFooter';
const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/**
 * The certification footer in a DOCX (D20), kept editable as Word's own: a paragraph with PAGE and NUMPAGES fields
 * added to every existing footer part, and a footer part of its own referenced by every section for each kind of
 * page (default, first, even) that had no footer, so every page shows it whatever the section settings.
 * `line` holds `{PAGE}` and `{NUMPAGES}` where the fields go.
 */
export async function stampDocx(input: string, output: string, line: string): Promise<{ pages: number | null }> {
  const zip = await openZip(input);
  const out = new ZipWriter();
  const paragraph = footerParagraph(line);
  let pages: number | null = null;
  try {
    for await (const entry of entries(zip)) {
      if (entry.fileName.endsWith('/') || entry.fileName === FOOTER_PART) continue;
      let content = (await readEntry(zip, entry)).toString('utf8');
      if (entry.fileName === 'word/document.xml') content = referenceFooter(content);
      else if (/^word\/footer\d*\.xml$/.test(entry.fileName)) content = content.replace(/<\/w:ftr>\s*$/, `${paragraph}</w:ftr>`);
      else if (entry.fileName === 'word/_rels/document.xml.rels') {
        content = content.replace('</Relationships>', `<Relationship Id="${RELATIONSHIP_ID}" Type="${R}/footer" Target="certified-footer.xml"/></Relationships>`);
      } else if (entry.fileName === '[Content_Types].xml') {
        content = content.replace('</Types>', `<Override PartName="/${FOOTER_PART}" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.footer+xml"/></Types>`);
      } else if (entry.fileName === 'docProps/app.xml') {
        const counted = Number(/<Pages>(\d+)<\/Pages>/.exec(content)?.[1]);
        pages = counted > 0 ? counted : null;
      }
      out.addBuffer(Buffer.from(content, 'utf8'), entry.fileName);
    }
  } finally {
    zip.close();
  }
  out.addBuffer(Buffer.from(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:ftr xmlns:w="${W}" xmlns:r="${R}">${paragraph}</w:ftr>`, 'utf8'), FOOTER_PART);
  out.end();
  await new Promise<void>((resolve, reject) => out.outputStream.pipe(createWriteStream(output)).on('close', resolve).on('error', reject));
  return { pages };
}

/** Each section gets our footer for every kind of page it has none for; a body without sections gets one. */
function referenceFooter(xml: string): string {
  let document = /<w:document\b[^>]*\sxmlns:r=/.test(xml) ? xml : xml.replace(/<w:document\b/, `<w:document xmlns:r="${R}"`);
  document = document.replace(/<w:sectPr\b([^>]*)\/>/g, '<w:sectPr$1></w:sectPr>');
  if (!/<w:sectPr\b/.test(document)) document = document.replace(/<\/w:body>/, '<w:sectPr></w:sectPr></w:body>');
  return document.replace(/<w:sectPr\b([^>]*)>([\s\S]*?)<\/w:sectPr>/g, (_section, attributes: string, inner: string) => {
    const missing = ['default', 'first', 'even'].filter((type) => !new RegExp(`<w:footerReference\\b[^>]*w:type="${type}"`).test(inner));
    const references = missing.map((type) => `<w:footerReference w:type="${type}" r:id="${RELATIONSHIP_ID}"/>`).join('');
    return `<w:sectPr${attributes}>${references}${inner}</w:sectPr>`;
  });
}

function footerParagraph(line: string): string {
  const run = (text: string) => `<w:r><w:rPr><w:sz w:val="14"/></w:rPr><w:t xml:space="preserve">${escapeXml(text)}</w:t></w:r>`;
  const field = (name: string) =>
    `<w:r><w:rPr><w:sz w:val="14"/></w:rPr><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:rPr><w:sz w:val="14"/></w:rPr><w:instrText xml:space="preserve"> ${name} </w:instrText></w:r>` +
    `<w:r><w:rPr><w:sz w:val="14"/></w:rPr><w:fldChar w:fldCharType="separate"/></w:r>${run('1')}<w:r><w:rPr><w:sz w:val="14"/></w:rPr><w:fldChar w:fldCharType="end"/></w:r>`;
  const runs = line.split(/(\{PAGE\}|\{NUMPAGES\})/).map((part) => (part === '{PAGE}' ? field('PAGE') : part === '{NUMPAGES}' ? field('NUMPAGES') : part ? run(part) : ''));
  return `<w:p><w:pPr><w:jc w:val="center"/></w:pPr>${runs.join('')}</w:p>`;
}

const escapeXml = (text: string) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
