import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { xmlRewrite, type XmlRewriter, type XmlTag } from '../../src/documents/xml-rewrite';

/** Streams `xml` through a rewrite in chunks of `size` bytes: every boundary a real zip stream could cut at. */
async function rewrite(xml: string, rewriter: XmlRewriter, size: number): Promise<string> {
  const bytes = Buffer.from(xml, 'utf8');
  const chunks = Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) =>
    bytes.subarray(i * size, (i + 1) * size),
  );
  return text(Readable.from(chunks).pipe(xmlRewrite(rewriter)));
}

const collect = (): XmlRewriter & { tags: XmlTag[]; texts: string[] } => {
  const seen = { tags: [] as XmlTag[], texts: [] as string[] };
  return {
    ...seen,
    tag: (tag) => (seen.tags.push(tag), tag.raw),
    text: (t) => (seen.texts.push(t), t),
  };
};

const SAMPLE =
  '<?xml version="1.0"?><w:document xmlns:w="urn:w"><!-- a > b --><w:body><w:p w:rsid="a>b" x=\'"\'><w:r><w:t xml:space="preserve">Grüße ✓ </w:t></w:r></w:p>' +
  '<![CDATA[ <not a tag> ]]><w:p/><w:sectPr/></w:body></w:document>';

describe('xmlRewrite', () => {
  it.each([1, 2, 3, 7, 64, 4096])(
    'writes back exactly what it read, and sees the same tokens, in chunks of %i bytes',
    async (size) => {
      const seen = collect();
      expect(await rewrite(SAMPLE, seen, size)).toBe(SAMPLE);
      const names = seen.tags.map((tag) => `${tag.closing ? '/' : ''}${tag.name}${tag.selfClosing ? '/' : ''}`);
      expect(names).toEqual([
        '',
        'w:document',
        '',
        'w:body',
        'w:p',
        'w:r',
        'w:t',
        '/w:t',
        '/w:r',
        '/w:p',
        '',
        'w:p/',
        'w:sectPr/',
        '/w:body',
        '/w:document',
      ]);
      // A `>` inside a quoted attribute or a comment does not end the token.
      expect(seen.tags.find((tag) => tag.name === 'w:p')?.raw).toBe('<w:p w:rsid="a>b" x=\'"\'>');
      expect(seen.texts.join('')).toBe('Grüße ✓ ');
    },
  );

  it('rewrites tokens and adds what the rewriter held back at the end', async () => {
    const upper: XmlRewriter = {
      tag: (tag) => (tag.name === 'w:t' && !tag.closing ? '<w:t>[EN] ' : tag.raw),
      end: () => '<!-- end -->',
    };
    expect(await rewrite('<w:p><w:t>Hola</w:t></w:p>', upper, 3)).toBe('<w:p><w:t>[EN] Hola</w:t></w:p><!-- end -->');
  });

  it('walks 200,000 empty paragraphs in one pass', async () => {
    let paragraphs = 0;
    const xml = `<w:body>${'<w:p/>'.repeat(200_000)}</w:body>`;
    const out = await rewrite(xml, { tag: (tag) => (tag.name === 'w:p' && (paragraphs += 1), tag.raw) }, 16 * 1024);
    expect(paragraphs).toBe(200_000);
    expect(out).toBe(xml);
  });

  it('refuses a part that ends inside a tag, and a tag longer than the limit', async () => {
    await expect(rewrite('<w:p><w:t', collect(), 4)).rejects.toThrow('ends inside a tag');
    await expect(rewrite(`<w:p a="${'x'.repeat(1024 * 1024 + 10)}"/>`, collect(), 64 * 1024)).rejects.toThrow(
      'too long',
    );
  });
});
