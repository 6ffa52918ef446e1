import { useCallback, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { Form, formText, TextField } from '../../shared/form';
import { graphql } from '../../shared/gql';
import type { CreateQuoteInput, ServiceType } from '../../shared/gql/graphql';
import { fieldRefusal } from '../../shared/refusal';
import { typedWhole } from '../../shared/typed-numbers';
import { Pending } from '../../shared/layout';
import { CountedText } from '../counted-text';
import { money } from '../format';
import { useMe } from '../member-context';
import { personRefusal } from '../refusal';
import { FilePicker, type PickedFile, type Updater } from './file-picker';
import { LanguagePicker } from './language-picker';
import { QuoteSection } from './quote-section';

const Catalog = graphql(`
  query Catalog {
    languages {
      code
      name
      services
    }
    pricing {
      services {
        serviceType
        unit
        unitPriceCents
        currency
      }
      addons {
        code
        name
        priceCents
        pricingType
        currency
      }
    }
  }
`);

const CreateQuote = graphql(`
  mutation CreateQuote($input: CreateQuoteInput!) {
    createQuote(input: $input) {
      id
      unitCount
      unitType
      unitPriceCents
      subtotalCents
      addons {
        code
        quantity
        unitPriceCents
        totalCents
      }
      totalCents
      currency
      expiresAt
    }
  }
`);

/** The fields of the form, as the service names them in a refusal. */
const QUOTE_FIELDS = [
  'fileIds',
  'serviceType',
  'sourceLanguage',
  'targetLanguage',
  'addons',
  'unitCount',
  'instructions',
  'reference',
  'purchaseOrder',
  ...['name', 'line1', 'line2', 'city', 'postalCode', 'region', 'country'].map((f) => `shippingAddress.${f}`),
];

const SERVICE_NAMES: Record<ServiceType, string> = {
  CERTIFIED: 'Certified translation',
  STANDARD: 'Standard translation',
};

/** The add-ons the catalog takes with one service only (D8): a notary attests a certified translation alone. */
const ONLY_WITH: Partial<Record<string, ServiceType>> = { notarization: 'CERTIFIED' };
const offeredWith = (service: ServiceType) => (code: string) => (ONLY_WITH[code] ?? service) === service;

/**
 * Ordering a translation (docs/decisions.md D35): the documents, the service (only the languages it can be delivered
 * in are offered), add-ons with their prices, instructions, reference and purchase order; "Get quote" prices it and
 * the quote's section (`QuoteSection`) makes the order.
 */
export function NewOrder() {
  const me = useMe();
  const [{ data, fetching, error }] = useQuery({ query: Catalog, requestPolicy: 'cache-first' });
  const [files, setFiles] = useState<PickedFile[]>([]);
  const [service, setService] = useState<ServiceType>('CERTIFIED');
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [askedWithoutFiles, setAskedWithoutFiles] = useState(false);
  const [quoted, quote] = useMutation(CreateQuote);
  // A quote is for the form as it was sent: once a field or the documents change, it is set aside until the next
  // "Get quote" (the documents' counts coming in are no change).
  const [changed, setChanged] = useState(false);
  const [quotedFiles, setQuotedFiles] = useState('');
  const [waitingForUploads, setWaitingForUploads] = useState(false);
  const [unread, setUnread] = useState<Record<string, string>>();
  const update = useCallback((change: Updater) => setFiles(change), []);
  if (!data) return <Pending fetching={fetching} error={error} />;

  const languages = data.languages.filter((language) => language.services.includes(service));
  const uploaded = files.flatMap((picked) => (picked.file ? [picked.file.id] : []));
  const uncounted = files.flatMap((picked) => (picked.file?.analysisStatus === 'UNCOUNTABLE' ? [picked.name] : []));
  const hardCopy = chosen.has('hard_copy');
  const choose = (code: string, on: boolean) =>
    setChosen((all) => new Set([...all].filter((c) => c !== code).concat(on ? [code] : [])));
  // A file still uploading would be left out of the quote, which would then price less than the person ordered.
  const uploading = files.some((picked) => !picked.file && !picked.error);
  const submit = (form: FormData) => {
    setWaitingForUploads(uploading);
    const unitCount = typedWhole(formText(form, 'unitCount'));
    const copies = data.pricing.addons.filter((addon) => chosen.has(addon.code) && addon.pricingType === 'PER_COPY');
    const miscounted = copies.find((addon) => 'refusal' in typedWhole(formText(form, `copies.${addon.code}`)));
    const refusals: Record<string, string> = {};
    if ('refusal' in unitCount) refusals.unitCount = 'Write a whole number of pages or words, such as 3.';
    if (miscounted) refusals.addons = `Write a whole number of copies of ${miscounted.name.toLowerCase()}, such as 2.`;
    setUnread(Object.keys(refusals).length > 0 ? refusals : undefined);
    if (uploading || Object.keys(refusals).length > 0) return undefined;
    setChanged(false);
    setQuotedFiles(uploaded.join(' '));
    setAskedWithoutFiles(uploaded.length === 0);
    return quote({ input: quoteInput(form, service, uploaded, data.pricing.addons, chosen) });
  };
  // The service's "at least 1 item" about an empty list, as the person reads it, until a file is uploaded.
  const refusal = waitingForUploads
    ? fieldRefusal({ fileIds: 'Wait until every document has uploaded, then get the quote.' })
    : unread
      ? fieldRefusal(unread)
      : personRefusal(quoted.error, QUOTE_FIELDS);
  if (refusal && askedWithoutFiles && !waitingForUploads && !unread) {
    if (uploaded.length === 0) refusal.fields.fileIds = ['Upload at least one document first.'];
    else delete refusal.fields.fileIds;
  }
  const priced = quoted.data?.createQuote;
  const stale = changed || uploaded.join(' ') !== quotedFiles;

  return (
    <>
      <h1>Order a translation</h1>
      {/* Any change of a field (typed, chosen, ticked) bubbles here: the quote shown was for the form before it. */}
      <div className="form-watch" onChange={() => setChanged(true)} onInput={() => setChanged(true)}>
        <Form submitLabel="Get quote" onSubmit={submit} refusal={refusal} busy={quoted.fetching}>
          <FilePicker files={files} onChange={update} />
          <fieldset>
            <legend>Service</legend>
            {data.pricing.services.map((rate) => (
              <label key={rate.serviceType} className="choice">
                <input
                  type="radio"
                  name="serviceType"
                  value={rate.serviceType}
                  checked={service === rate.serviceType}
                  onChange={() => {
                    setService(rate.serviceType);
                    // An add-on the new service does not take is let go, not refused after "Get quote".
                    setChosen((all) => new Set([...all].filter(offeredWith(rate.serviceType))));
                  }}
                />
                {SERVICE_NAMES[rate.serviceType]}: {money(rate.unitPriceCents, rate.currency)} a{' '}
                {rate.unit.toLowerCase()}
              </label>
            ))}
          </fieldset>
          <div className="pair">
            <LanguagePicker name="sourceLanguage" label="Source language" languages={languages} />
            <LanguagePicker name="targetLanguage" label="Target language" languages={languages} />
          </div>
          <fieldset>
            <legend>Add-ons</legend>
            {data.pricing.addons.map((addon) => {
              const onlyWith = offeredWith(service)(addon.code) ? undefined : ONLY_WITH[addon.code];
              return (
                <div key={addon.code} className="addon">
                  <label className="choice">
                    <input
                      type="checkbox"
                      name="addon"
                      value={addon.code}
                      checked={chosen.has(addon.code)}
                      disabled={onlyWith !== undefined}
                      aria-describedby={onlyWith && `only-with-${addon.code}`}
                      onChange={(event) => choose(addon.code, event.currentTarget.checked)}
                    />
                    {addon.name}: {money(addon.priceCents, addon.currency)}
                    {addon.pricingType === 'PER_COPY' ? ' a copy' : ''}
                  </label>
                  {onlyWith && (
                    <span id={`only-with-${addon.code}`} className="hint">
                      Only with a {SERVICE_NAMES[onlyWith].toLowerCase()}.
                    </span>
                  )}
                  {addon.pricingType === 'PER_COPY' && chosen.has(addon.code) && (
                    <TextField
                      name={`copies.${addon.code}`}
                      errorName="addons"
                      label={`Copies of ${addon.name.toLowerCase()}`}
                      type="number"
                      min={1}
                      max={10}
                      defaultValue={1}
                    />
                  )}
                </div>
              );
            })}
          </fieldset>
          {uncounted.length > 0 && (
            <TextField
              name="unitCount"
              label={service === 'CERTIFIED' ? 'Pages to translate' : 'Words to translate'}
              hint={`We could not count the text of ${uncounted.join(', ')}: say how many ${
                service === 'CERTIFIED' ? 'pages of text' : 'words'
              } the documents have in all. Scanned pages are priced on their own.`}
              type="number"
              min={1}
            />
          )}
          {hardCopy && <ShippingFields />}
          <CountedText
            name="instructions"
            label="Instructions to the translator"
            hint="Name spellings as on a passport, terms, format. Never printed on the certificate."
            limit={2000}
            multiline
          />
          <CountedText name="reference" label="Your reference" hint="The matter, as your firm names it." limit={255} />
          <CountedText
            name="purchaseOrder"
            label={me.purchaseOrderRequired ? 'Purchase order (required)' : 'Purchase order'}
            hint="Printed on the invoice and the receipt."
            limit={64}
          />
        </Form>
      </div>
      {priced && stale && (
        <p role="status">The order changed since its quote: press &ldquo;Get quote&rdquo; for the price of this one.</p>
      )}
      {priced && !stale && (
        <QuoteSection
          key={priced.id}
          priced={priced}
          addonName={(code) => data.pricing.addons.find((a) => a.code === code)?.name ?? code}
        />
      )}
    </>
  );
}

function ShippingFields() {
  return (
    <fieldset>
      <legend>Where the hard copies go</legend>
      <TextField name="ship.name" errorName="shippingAddress.name" label="Name" autoComplete="name" />
      <TextField name="ship.line1" errorName="shippingAddress.line1" label="Address" autoComplete="address-line1" />
      <TextField
        name="ship.line2"
        errorName="shippingAddress.line2"
        label="Address, second line"
        autoComplete="address-line2"
      />
      <TextField name="ship.city" errorName="shippingAddress.city" label="City" autoComplete="address-level2" />
      <TextField
        name="ship.postalCode"
        errorName="shippingAddress.postalCode"
        label="Postal code"
        autoComplete="postal-code"
      />
      <TextField name="ship.region" errorName="shippingAddress.region" label="Region" autoComplete="address-level1" />
      <TextField
        name="ship.country"
        errorName="shippingAddress.country"
        label="Country (two letters)"
        autoComplete="country"
      />
    </fieldset>
  );
}

function quoteInput(
  form: FormData,
  serviceType: ServiceType,
  fileIds: string[],
  addons: { code: string; pricingType: string }[],
  chosen: ReadonlySet<string>,
): CreateQuoteInput {
  const optional = (name: string) => formText(form, name) || undefined;
  return {
    fileIds,
    serviceType,
    sourceLanguage: formText(form, 'sourceLanguage'),
    targetLanguage: formText(form, 'targetLanguage'),
    instructions: optional('instructions'),
    reference: optional('reference'),
    purchaseOrder: optional('purchaseOrder'),
    unitCount: formText(form, 'unitCount') ? Number(formText(form, 'unitCount')) : undefined,
    addons: addons
      .filter((addon) => chosen.has(addon.code))
      .map((addon) =>
        addon.pricingType === 'PER_COPY'
          ? { code: addon.code, quantity: Number(formText(form, `copies.${addon.code}`) || 1) }
          : { code: addon.code },
      ),
    shippingAddress: chosen.has('hard_copy')
      ? {
          name: formText(form, 'ship.name'),
          line1: formText(form, 'ship.line1'),
          line2: optional('ship.line2'),
          city: formText(form, 'ship.city'),
          postalCode: formText(form, 'ship.postalCode'),
          region: optional('ship.region'),
          country: formText(form, 'ship.country').toUpperCase(),
        }
      : undefined,
  };
}
