import type { FieldErrors } from '../../shared/errors';
import { escapeHtml, htmlDocument } from '../http/html';

/** What the page may load and where its one form may post: nothing from outside, and only back here. */
export const ADDRESS_PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** The form's fields, named as the REST body's (`PUT /orders/{id}/shipping_address`), with what a person reads. */
const FIELDS = [
  { name: 'name', label: 'Recipient', required: true, autocomplete: 'name' },
  { name: 'line1', label: 'Address line 1', required: true, autocomplete: 'address-line1' },
  { name: 'line2', label: 'Address line 2 (optional)', required: false, autocomplete: 'address-line2' },
  { name: 'city', label: 'City', required: true, autocomplete: 'address-level2' },
  { name: 'region', label: 'State, province or county (optional)', required: false, autocomplete: 'address-level1' },
  { name: 'postal_code', label: 'Postal code', required: true, autocomplete: 'postal-code' },
  { name: 'country', label: 'Country (two letters, e.g. US)', required: true, autocomplete: 'country' },
] as const;

export type AddressFormValues = Partial<Record<(typeof FIELDS)[number]['name'], string>>;

const STYLE = `label{display:block;font-weight:600;margin-top:1rem}
input{font:inherit;width:100%;min-height:44px;padding:.4rem .6rem;border:1px solid #9ca3af;border-radius:6px;margin-top:.25rem}
input:focus-visible{outline:3px solid #f59e0b;outline-offset:1px}
.error{color:#b91c1c;margin:.25rem 0 0}
address{font-style:normal;white-space:pre-line;margin:1rem 0}`;

/** The form, filled with `values`, each field's errors beside it; posted back to `action` (the signed link). */
export function addressFormPage(
  company: string,
  orderNumber: string,
  action: string,
  values: AddressFormValues,
  errors: FieldErrors = {},
): string {
  const inputs = FIELDS.map(({ name, label, required, autocomplete }) => {
    const messages = errors[name] ?? [];
    const described = messages.length ? ` aria-invalid="true" aria-describedby="${name}-error"` : '';
    return `<label for="${name}">${escapeHtml(label)}</label><input id="${name}" name="${name}" value="${escapeHtml(values[name] ?? '')}" autocomplete="${autocomplete}"${required ? ' required' : ''}${described}>${
      messages.length ? `<p class="error" id="${name}-error">${escapeHtml(messages.join(' '))}</p>` : ''
    }`;
  }).join('');
  // A refusal of the order rather than of a field (shipped meanwhile, cancelled) is said above the form.
  const named = new Set<string>(FIELDS.map((field) => field.name));
  const other = Object.entries(errors)
    .filter(([field]) => !named.has(field))
    .flatMap(([, messages]) => messages);
  const status = other.length ? `<p class="status closed" role="alert">${escapeHtml(other.join(' '))}</p>` : '';
  const body = `${status}<form method="post" action="${escapeHtml(action)}">${inputs}<div class="actions"><button type="submit" class="primary">Save the address</button></div></form>`;
  return card(company, `Where should we mail the hard copies of order ${orderNumber}?`, body);
}

/** A page that only says something: the address saved, why it cannot be given here, or a link that is not valid. */
export function addressMessagePage(company: string, title: string, message: string, tone: 'ok' | 'closed'): string {
  return card(company, title, `<p class="status ${tone}" role="status">${escapeHtml(message)}</p>`);
}

function card(company: string, title: string, body: string): string {
  return htmlDocument(
    title,
    `<main><div class="card"><header>${escapeHtml(company)}</header><h1>${escapeHtml(title)}</h1>${body}</div></main>`,
    STYLE,
  );
}
