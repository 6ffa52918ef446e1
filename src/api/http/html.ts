/** Small server-rendered pages (checkout, verification, the API landing page): self-contained, no outside assets. */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const BASE_STYLE = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a2e;background:#f4f5f7}
main{max-width:30rem;margin:0 auto;padding:1.5rem 1rem}
.card{background:#fff;border-radius:12px;box-shadow:0 1px 3px rgba(0,0,0,.12);padding:1.5rem}
header{font-weight:600;color:#444;margin-bottom:1rem}
h1{font-size:1.4rem;margin:.25rem 0 1rem}
table{width:100%;border-collapse:collapse;margin:1rem 0}
td{padding:.5rem 0;border-bottom:1px solid #e5e7eb;vertical-align:top}
td.amount{text-align:right;white-space:nowrap;padding-left:1rem}
tr.total td{font-weight:700;border-bottom:none;font-size:1.1rem}
.actions{display:flex;flex-direction:column;gap:.75rem;margin-top:1.5rem}
button{font:inherit;font-weight:600;width:100%;min-height:48px;border-radius:8px;border:1px solid #1d4ed8;cursor:pointer}
button.primary{background:#1d4ed8;color:#fff}
button.secondary{background:#fff;color:#1d4ed8}
button:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
.status{padding:.75rem 1rem;border-radius:8px;background:#eef2ff}
.status.ok{background:#ecfdf5}
.status.closed{background:#fef2f2}
.note{color:#555;font-size:.875rem;margin-top:1.5rem}
@media (min-width:768px){main{padding-top:4rem}.actions{flex-direction:row-reverse}.actions form{flex:1}}
.nowrap{white-space:nowrap}
`;

/** A whole page: language, character set, the phone viewport, the shared styles. */
export function htmlDocument(title: string, body: string, extraStyle = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title><style>${BASE_STYLE}${extraStyle}</style></head><body>${body}</body></html>`;
}
