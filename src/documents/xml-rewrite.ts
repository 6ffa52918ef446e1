import { StringDecoder } from 'node:string_decoder';
import { Transform } from 'node:stream';

/** One markup token of an XML part: an element tag, or a comment, CDATA section or processing instruction. */
export interface XmlTag {
  /** The token exactly as written, `<` to `>`. */
  raw: string;
  /** The element name (`w:p`); empty for comments, CDATA and processing instructions. */
  name: string;
  closing: boolean;
  selfClosing: boolean;
}

/** What a rewrite does with each token; every method returns the text written in its place. */
export interface XmlRewriter {
  tag(tag: XmlTag): string;
  text?(text: string): string;
  /** Written after the last token (what a rewriter still held back). */
  end?(): string;
}

/** A tag longer than this is not WordprocessingML a person wrote: the part is refused rather than held. */
export const MAX_TAG_CHARS = 1024 * 1024;

export class XmlLimitError extends Error {}

const ENDS: ReadonlyArray<[string, string]> = [
  ['<!--', '-->'],
  ['<![CDATA[', ']]>'],
  ['<?', '?>'],
];

/**
 * Rewrites an XML part as it streams, token by token, in one linear pass (client XML never meets a regular
 * expression, D25): text between tags is found with indexOf, a tag is scanned once up to its `>` outside
 * quotes, and a tag cut by a chunk boundary is carried to the next chunk, up to MAX_TAG_CHARS. Bytes are decoded
 * as UTF-8 across chunk boundaries. Anything a rewriter does not change is written back exactly as read.
 */
export function xmlRewrite(rewriter: XmlRewriter): Transform {
  const decoder = new StringDecoder('utf8');
  let carry = ''; // an unfinished tag, from its `<`
  let quote = ''; // inside an element tag: the open attribute quote, if any
  let scanned = 0; // how much of `carry` has been scanned already

  const scan = (input: string): string => {
    const buffer = carry + input;
    // A carried tag resumes where its scan stopped (its quote state is kept in `quote`).
    let tagStart = carry ? 0 : -1;
    let index = carry ? scanned : 0;
    let textStart = 0;
    let out = '';
    carry = '';
    while (index < buffer.length) {
      if (tagStart < 0) {
        const open = buffer.indexOf('<', index);
        if (open < 0) break;
        if (open > textStart) out += writeText(buffer.slice(textStart, open));
        tagStart = open;
        index = open + 1;
        quote = '';
        continue;
      }
      const end = tagEnd(buffer, tagStart, index);
      if (end < 0) break;
      if (end + 1 - tagStart > MAX_TAG_CHARS) throw new XmlLimitError('An XML tag is too long.');
      out += rewriter.tag(parseTag(buffer.slice(tagStart, end + 1)));
      index = textStart = end + 1;
      tagStart = -1;
    }
    if (tagStart >= 0) {
      carry = buffer.slice(tagStart);
      scanned = carry.length;
      if (carry.length > MAX_TAG_CHARS) throw new XmlLimitError('An XML tag is too long.');
    } else if (textStart < buffer.length) {
      out += writeText(buffer.slice(textStart));
    }
    return out;
  };

  const writeText = (text: string): string => (rewriter.text ? rewriter.text(text) : text);

  /** The index of the `>` that ends the token starting at `start`, scanning from `from`; -1 when not in `buffer` yet. */
  const tagEnd = (buffer: string, start: number, from: number): number => {
    for (const [opener, closer] of ENDS) {
      if (buffer.startsWith(opener, start)) {
        const found = buffer.indexOf(closer, Math.max(from - closer.length + 1, start + opener.length));
        return found < 0 ? -1 : found + closer.length - 1;
      }
      // Too short yet to tell which kind of token this is: wait for more.
      if (buffer.length - start < opener.length && opener.startsWith(buffer.slice(start))) return -1;
    }
    for (let i = from; i < buffer.length; i++) {
      const c = buffer[i];
      if (quote) {
        if (c === quote) quote = '';
      } else if (c === '"' || c === "'") quote = c;
      else if (c === '>') return i;
    }
    return -1;
  };

  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      try {
        done(null, scan(decoder.write(chunk)));
      } catch (error) {
        done(error as Error);
      }
    },
    flush(done) {
      try {
        let out = scan(decoder.end());
        if (carry) throw new XmlLimitError('The XML part ends inside a tag.');
        if (rewriter.end) out += rewriter.end();
        done(null, out);
      } catch (error) {
        done(error as Error);
      }
    },
  });
}

function parseTag(raw: string): XmlTag {
  if (raw.startsWith('<!') || raw.startsWith('<?')) return { raw, name: '', closing: false, selfClosing: false };
  const closing = raw[1] === '/';
  let end = closing ? 2 : 1;
  while (end < raw.length && !' \t\r\n/>'.includes(raw[end])) end++;
  return { raw, name: raw.slice(closing ? 2 : 1, end), closing, selfClosing: !closing && raw.endsWith('/>') };
}

/** Escapes text for an XML text node or attribute value. */
export const escapeXml = (text: string): string =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
