const MAX_LENGTH = 255;

/**
 * The client's file name without any path part, control or invisible formatting characters (which can
 * disguise an extension, like U+202E), at most 255 characters (D5). Empty after cleaning: "document".
 */
export function sanitizeFileName(raw: string | undefined): string {
  const base = (raw ?? '').split(/[/\\]/).pop() ?? '';
  const clean = base
    .normalize('NFC')
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, '')
    .trim()
    .replace(/^\.+$/, '');
  const chars = [...clean];
  if (chars.length <= MAX_LENGTH) return clean || 'document';
  // Keep the extension when shortening.
  const dot = clean.lastIndexOf('.');
  const ext = dot > 0 && clean.length - dot <= 16 ? clean.slice(dot) : '';
  return [...clean.slice(0, clean.length - ext.length)].slice(0, MAX_LENGTH - [...ext].length).join('') + ext;
}
