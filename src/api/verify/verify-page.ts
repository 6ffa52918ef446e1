import { createHash } from 'node:crypto';
import { languageName } from '../../domain/catalog/language-names';
import { longDate } from '../../documents/certificate-pdf';
import type { IssuedCertificate } from '../../domain/certification/issued-certificate.entity';
import { escapeHtml } from '../http/html';

/**
 * Checks a file on the reader's own machine: its SHA-256 is computed in the browser (the file is never sent)
 * and looked up among the certificate's documents. The page works without it, by reading the hashes.
 */
const CHECK_SCRIPT = `document.getElementById('file').addEventListener('change', async (event) => {
  const out = document.getElementById('result');
  const file = event.target.files[0];
  if (!file) return;
  if (!window.crypto || !crypto.subtle) { out.textContent = 'This browser cannot compute SHA-256 here; compare the fingerprints by hand.'; return; }
  const digest = Array.from(new Uint8Array(await crypto.subtle.digest('SHA-256', await file.arrayBuffer())), (b) => b.toString(16).padStart(2, '0')).join('');
  const row = document.querySelector('[data-sha256="' + digest + '"]');
  out.textContent = row ? 'Match: ' + file.name + ' is ' + row.dataset.name + ', unchanged since it was certified.' : 'No match: ' + file.name + ' is not one of the certified translations, or it was changed.';
  out.className = row ? 'ok' : 'bad';
});`;

/** The page allows its own inline style and this one script, and loads nothing from anywhere. */
export const VERIFY_PAGE_CSP = `default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${createHash('sha256').update(CHECK_SCRIPT).digest('base64')}'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'`;

const STYLE = `body{font:16px/1.5 Georgia,'Times New Roman',serif;color:#1a1a1a;max-width:56rem;margin:2rem auto;padding:0 1rem}
header{border-bottom:3px double #777;margin-bottom:1.5rem;text-align:center}header p{margin:.2rem 0 1rem;color:#555}
h1{font-size:1.5rem;margin:0}h2{font-size:1.15rem;margin:1.5rem 0 .5rem}
.status{border:1px solid #2e7d32;background:#eef7ee;padding:.75rem 1rem;font-weight:bold}.missing{border-color:#b71c1c;background:#fbeeee}
dl{display:grid;grid-template-columns:12rem 1fr;gap:.3rem 1rem}dt{font-weight:bold}dd{margin:0}
table{border-collapse:collapse;width:100%;font-size:.95rem}th,td{border-bottom:1px solid #ccc;padding:.4rem;text-align:left;vertical-align:top}
th{background:#eee}code{font:.8rem/1.3 monospace}td code{word-break:break-all}.ok{color:#2e7d32}.bad{color:#b71c1c}footer{margin-top:2rem;color:#666;font-size:.85rem}
dd,td{overflow-wrap:anywhere}input{max-width:100%}
@media (max-width:40rem){dl{grid-template-columns:1fr;gap:0}dd{margin-bottom:.5rem}
table,tbody,tr,td{display:block}thead{display:none}tr{border-bottom:1px solid #ccc;padding:.4rem 0}td{border:0;padding:.1rem 0}
td::before{content:attr(data-label) ": ";font-weight:bold}}`;

/** Who issues the certificates, and where a reader with a question writes (`SUPPORT_EMAIL`). */
export interface Operator {
  name: string;
  supportEmail: string;
}

const contact = ({ supportEmail }: Operator) =>
  `<a href="mailto:${escapeHtml(supportEmail)}">${escapeHtml(supportEmail)}</a>`;

const page = (operator: Operator, title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
  `<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>` +
  `<header><h1>${escapeHtml(operator.name)}</h1><p>Verification of a certificate of translation accuracy</p></header>${body}</body></html>`;

/** D20's verification page: what the certificate states, the documents with their fingerprints, and no other client data. */
export function verifyPage(operator: Operator, certificate: IssuedCertificate): string {
  const company = operator.name;
  const { translator } = certificate;
  const rows = certificate.documents
    .map(
      (document, index) =>
        `<tr data-sha256="${escapeHtml(document.sha256)}" data-name="${escapeHtml(document.name)}"><td data-label="No.">${index + 1}</td><td data-label="Source document">${escapeHtml(document.sourceName)}</td>` +
        `<td data-label="Translation">${escapeHtml(document.name)}</td><td data-label="Pages">${document.pageCount}</td><td data-label="SHA-256"><code>${escapeHtml(document.sha256)}</code></td></tr>`,
    )
    .join('');
  return page(
    operator,
    `Certificate ${certificate.code}`,
    `${standing(company, certificate)}
<dl><dt>Verification code</dt><dd>${escapeHtml(certificate.code)}</dd>
<dt>Order number</dt><dd>${escapeHtml(certificate.orderNumber)}</dd>
<dt>Client</dt><dd>${escapeHtml(certificate.accountName)}</dd>
<dt>Languages</dt><dd>${escapeHtml(languageName(certificate.sourceLanguage))} into ${escapeHtml(languageName(certificate.targetLanguage))}</dd>
<dt>Translator</dt><dd>${escapeHtml(translator.name)}${translator.credentials ? `, ${escapeHtml(translator.credentials)}` : ''}</dd>
<dt>Issued</dt><dd>${escapeHtml(longDate(certificate.issuedAt))}</dd>
<dt>Notarized</dt><dd>${certificate.notarized ? 'Yes' : 'No'}</dd></dl>
${deleted(certificate)}<h2>Certified documents</h2>
<table><thead><tr><th>No.</th><th>Source document</th><th>Translation</th><th>Pages</th><th>SHA-256 of the translation</th></tr></thead><tbody>${rows}</tbody></table>
<h2>Check a copy</h2>
<p>Choose a translation file to compare its SHA-256 fingerprint with the list above. The file stays on this computer.</p>
<p><input type="file" id="file"> <span id="result" role="status"></span></p>
<p>Or compute it yourself, for example with <code>sha256sum file.pdf</code> (Linux), <code>shasum -a 256 file.pdf</code> (macOS) or <code>certutil -hashfile file.pdf SHA256</code> (Windows).</p>
<p>Every page of a certified translation is footed with its order number, "Certified translation", its page number and this verification code.</p>
<footer>Questions about a certificate: ${contact(operator)}.</footer>
<script>${CHECK_SCRIPT}</script>`,
  );
}

/** D33: the documents were deleted under the client's retention policy; the fingerprints still verify a copy. */
function deleted(certificate: IssuedCertificate): string {
  const at = certificate.order.documentsDeletedAt;
  if (!at) return '';
  return `<p class="deleted">The documents themselves were deleted on ${escapeHtml(longDate(at))} under the client's retention policy. This certificate stays valid: the fingerprints below still verify a copy the client kept.</p>\n`;
}

/** Valid, or superseded by a revision's certificate (D30), named with a link to its own page. */
function standing(company: string, certificate: IssuedCertificate): string {
  if (certificate.supersededBy === null)
    return `<p class="status">This is a valid certificate of translation accuracy issued by ${escapeHtml(company)}.</p>`;
  const code = escapeHtml(certificate.supersededBy);
  return `<p class="status missing">Superseded: this certificate was replaced by the certificate of a revision, verification code <a href="/verify/${code}">${code}</a>. Rely on that one.</p>`;
}

export function unknownCodePage(operator: Operator): string {
  return page(
    operator,
    'Certificate not found',
    `<p class="status missing">No certificate has this verification code. Check the code as printed on the certificate, or write to ${contact(operator)}.</p>`,
  );
}
