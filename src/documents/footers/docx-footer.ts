import { escapeXml, xmlRewrite, XmlLimitError, type XmlRewriter, type XmlTag } from '../xml-rewrite';
import { rewriteZip, type ZipLimits } from '../zip-rewrite';

const FOOTER_PART = 'word/certified-footer.xml';
const RELATIONSHIP_ID = 'rIdCertifiedFooter';
const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/**
 * The certification footer in a DOCX (D20), kept editable as Word's own: a paragraph with PAGE and NUMPAGES fields
 * added to every existing footer part, and a footer part of its own referenced by every section for each kind of
 * page (default, first, even) that had no footer, so every page shows it whatever the section settings.
 * `line` holds `{PAGE}` and `{NUMPAGES}` where the fields go. The parts stream through linear rewrites
 * (xml-rewrite.ts), never held whole, so a hostile translation costs no more than its size (D25).
 */
export async function stampDocx(
  input: string,
  output: string,
  line: string,
  limits: ZipLimits,
): Promise<{ pages: number | null }> {
  const paragraph = footerParagraph(line);
  const pages = new PagesReader();
  await rewriteZip(input, output, limits, {
    skip: (name) => name === FOOTER_PART,
    rewrite(name) {
      if (name === 'word/document.xml') return xmlRewrite(new SectionFooters());
      if (FOOTER_PARTS.test(name)) return xmlRewrite(before('w:ftr', paragraph));
      if (name === 'word/_rels/document.xml.rels') {
        return xmlRewrite(
          before(
            'Relationships',
            `<Relationship Id="${RELATIONSHIP_ID}" Type="${R}/footer" Target="certified-footer.xml"/>`,
          ),
        );
      }
      if (name === '[Content_Types].xml') {
        return xmlRewrite(
          before(
            'Types',
            `<Override PartName="/${FOOTER_PART}" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.footer+xml"/>`,
          ),
        );
      }
      if (name === 'docProps/app.xml') return xmlRewrite(pages);
      return undefined;
    },
    added: () => [
      {
        name: FOOTER_PART,
        content: Buffer.from(
          `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:ftr xmlns:w="${W}" xmlns:r="${R}">${paragraph}</w:ftr>`,
          'utf8',
        ),
      },
    ],
  });
  return { pages: pages.value };
}

const FOOTER_PARTS = /^word\/footer\d*\.xml$/;
const FOOTER_TYPES = ['default', 'first', 'even'];
/** A section's properties are a few references and sizes: anything larger is not a document to stamp. */
const MAX_SECTION_CHARS = 64 * 1024;

/** Inserts `markup` before the closing tag of `element`. */
const before = (element: string, markup: string): XmlRewriter => ({
  tag: (tag) => (tag.closing && tag.name === element ? markup + tag.raw : tag.raw),
});

/**
 * Each section gets our footer for every kind of page it has none for; a body without sections gets one. A
 * section's properties are held until their end (the references must come first, before what they hold).
 */
class SectionFooters implements XmlRewriter {
  private section?: { open: string; inner: string; types: Set<string> };
  private sawSection = false;

  tag(tag: XmlTag): string {
    if (tag.name === 'w:document' && !tag.closing && attribute(tag.raw, 'xmlns:r') === undefined)
      return `<w:document xmlns:r="${R}"${tag.raw.slice('<w:document'.length)}`;
    if (tag.name === 'w:sectPr' && !tag.closing) {
      this.sawSection = true;
      if (tag.selfClosing) return `${tag.raw.slice(0, -2)}>${references(new Set())}</w:sectPr>`;
      this.section = { open: tag.raw, inner: '', types: new Set() };
      return '';
    }
    if (this.section) {
      if (tag.name === 'w:sectPr' && tag.closing) {
        const { open, inner, types } = this.section;
        this.section = undefined;
        return `${open}${references(types)}${inner}${tag.raw}`;
      }
      if (tag.name === 'w:footerReference') this.section.types.add(attribute(tag.raw, 'w:type') ?? '');
      return this.hold(tag.raw);
    }
    if (tag.name === 'w:body' && tag.closing && !this.sawSection)
      return `<w:sectPr>${references(new Set())}</w:sectPr>${tag.raw}`;
    return tag.raw;
  }

  text(text: string): string {
    return this.section ? this.hold(text) : text;
  }

  private hold(markup: string): string {
    this.section!.inner += markup;
    if (this.section!.inner.length > MAX_SECTION_CHARS)
      throw new XmlLimitError('A section of the document is too large.');
    return '';
  }
}

const references = (present: Set<string>): string =>
  FOOTER_TYPES.filter((type) => !present.has(type))
    .map((type) => `<w:footerReference w:type="${type}" r:id="${RELATIONSHIP_ID}"/>`)
    .join('');

/** An attribute's value in a tag (undefined when absent), found without a regular expression: the tag is the client's. */
function attribute(raw: string, name: string): string | undefined {
  for (let at = raw.indexOf(`${name}=`); at >= 0; at = raw.indexOf(`${name}=`, at + 1)) {
    if (!' \t\r\n'.includes(raw[at - 1])) continue;
    const quote = raw[at + name.length + 1];
    const end = raw.indexOf(quote, at + name.length + 2);
    return end < 0 ? '' : raw.slice(at + name.length + 2, end);
  }
  return undefined;
}

/** The page count Word last saved in docProps/app.xml (`<Pages>`), read as the part streams past. */
class PagesReader implements XmlRewriter {
  value: number | null = null;
  private inPages = false;
  private digits = '';

  tag(tag: XmlTag): string {
    if (tag.name === 'Pages') {
      this.inPages = !tag.closing && !tag.selfClosing;
      if (tag.closing) {
        const pages = Number(this.digits);
        this.value = Number.isInteger(pages) && pages > 0 ? pages : null;
      }
      this.digits = '';
    }
    return tag.raw;
  }

  text(text: string): string {
    if (this.inPages && this.digits.length < 16) this.digits += text.slice(0, 16);
    return text;
  }
}

function footerParagraph(line: string): string {
  const run = (text: string) =>
    `<w:r><w:rPr><w:sz w:val="14"/></w:rPr><w:t xml:space="preserve">${escapeXml(text)}</w:t></w:r>`;
  const field = (name: string) =>
    `<w:r><w:rPr><w:sz w:val="14"/></w:rPr><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:rPr><w:sz w:val="14"/></w:rPr><w:instrText xml:space="preserve"> ${name} </w:instrText></w:r>` +
    `<w:r><w:rPr><w:sz w:val="14"/></w:rPr><w:fldChar w:fldCharType="separate"/></w:r>${run('1')}<w:r><w:rPr><w:sz w:val="14"/></w:rPr><w:fldChar w:fldCharType="end"/></w:r>`;
  const runs = line
    .split(/(\{PAGE\}|\{NUMPAGES\})/)
    .map((part) =>
      part === '{PAGE}' ? field('PAGE') : part === '{NUMPAGES}' ? field('NUMPAGES') : part ? run(part) : '',
    );
  return `<w:p><w:pPr><w:jc w:val="center"/></w:pPr>${runs.join('')}</w:p>`;
}
