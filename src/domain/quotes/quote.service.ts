import { LockMode, type EntityManager, type FilterQuery } from '@mikro-orm/core';
import { requireAccount } from '../accounts/authentication.service';
import { placedBy } from '../members/placed-by';
import { AddonPricingType, ServiceType } from '../catalog/catalog.enums';
import type { CatalogService } from '../catalog/catalog.service';
import { readLanguagePair } from '../catalog/language-pair';
import { Addon, ServiceRate } from '../catalog/rates.entity';
import type { StandardOffer } from '../catalog/standard-offer';
import { AnalysisStatus, FileType, StoredFile } from '../files/file.entity';
import { AttachmentOwner } from '../files/file-attachment.entity';
import type { FilesService } from '../files/files.service';
import type { Ctx } from '../shared/context';
import { NotFoundError, ValidationError } from '../../shared/errors';
import { isId } from '../shared/ids';
import { Page, paginate, readPageRequest } from '../shared/pagination';
import { retryingTransaction } from '../shared/transaction';
import { Validator } from '../shared/validation';
import { priceQuote } from './quote-pricing';
import { Quote, QuoteStatus, quoteStatus } from './quote.entity';
import { HARD_COPY, readShippingAddress } from './shipping-address';

export const MAX_FILES_PER_QUOTE = 20;
const MAX_UNIT_COUNT = 1_000_000;
const MAX_COPIES = 10;
const NOTARIZATION = 'notarization';

export interface QuoteInput {
  source_language?: unknown;
  target_language?: unknown;
  service_type?: unknown;
  file_ids?: unknown;
  unit_count?: unknown;
  addons?: unknown;
  reference?: unknown;
  shipping_address?: unknown;
}

interface AddonRequest {
  index: number;
  code: string;
  quantity: number | undefined;
}

/** Instant quotes (contract 2.5, 4.6-4.8; D7, D8). Both doors call these methods. */
export class QuoteService {
  constructor(
    private readonly deps: { catalog: CatalogService; files: FilesService; standard: StandardOffer; ttlDays: number },
  ) {}

  async create(ctx: Ctx, input: QuoteInput): Promise<Quote> {
    const account = requireAccount(ctx.actor, 'quotes.create');
    const v = new Validator(input as Record<string, unknown>);
    const { source: sourceLanguage, target: targetLanguage } = readLanguagePair(v, this.deps.catalog);
    const serviceType = v.oneOf('service_type', Object.values(ServiceType), { required: true });
    const fileIds = this.fileIds(v);
    const unitCount = v.integer('unit_count', { min: 1, max: MAX_UNIT_COUNT });
    const addonRequests = this.addonRequests(v);
    const reference = v.string('reference', { max: 255 });
    const shippingAddress = readShippingAddress(v, input.shipping_address);
    // The address may come now or later, on the order (v1 clients never send it, D22); without hard copies it would never be used.
    const hardCopies = addonRequests.some((request) => request.code === HARD_COPY);
    if (!hardCopies && input.shipping_address != null)
      v.fail('shipping_address', 'The shipping address field is only for quotes with hard copies.');
    v.done();

    const files = await ctx.em.find(StoredFile, { id: { $in: fileIds! }, account, type: FileType.SOURCE });
    const missing = fileIds!.findIndex((id) => !files.some((file) => file.id === id));
    if (missing >= 0)
      throw ValidationError.of('file_ids', `The file_ids.${missing} field must be one of your uploaded source files.`);

    // Counts are needed now: analyse what the background has not reached yet (D5).
    await this.deps.files.ensureAnalysed(ctx.em, files);
    if (serviceType === ServiceType.STANDARD)
      await this.refuseUndeliverable(
        sourceLanguage!,
        targetLanguage!,
        fileIds!.map((id) => files.find((file) => file.id === id)!),
      );
    const undetected = files.some((file) => file.analysisStatus === AnalysisStatus.UNCOUNTABLE);
    if (undetected && unitCount === undefined) {
      throw ValidationError.of(
        'unit_count',
        'The unit count field is required when a file has no detectable page or word count.',
      );
    }

    const [rate, catalogAddons] = await Promise.all([
      ctx.em.findOneOrFail(ServiceRate, { serviceType: serviceType! }),
      ctx.em.find(Addon, {}),
    ]);
    const addons = this.resolveAddons(addonRequests, catalogAddons, serviceType!);
    const price = priceQuote({
      serviceType: serviceType!,
      rate,
      files,
      // When every file was counted, a supplied unit_count is ignored (D8).
      undetectedUnits: undetected ? unitCount! : 0,
      addons,
    });

    const quote = new Quote();
    Object.assign(quote, {
      account,
      placedBy: placedBy(ctx.actor),
      serviceType: serviceType!,
      sourceLanguage: sourceLanguage!,
      targetLanguage: targetLanguage!,
      fileIds: fileIds!,
      reference: reference ?? null,
      shippingAddress: shippingAddress ?? null,
      // From the quote's own creation instant: expires_at is exactly created_at + QUOTE_TTL_DAYS (D8).
      expiresAt: new Date(quote.createdAt.getTime() + this.deps.ttlDays * 24 * 60 * 60 * 1000),
      ...price,
    });
    await retryingTransaction(ctx.em, async (em) => {
      // A file deleted since it was read cannot be quoted: the share lock waits for a deletion under way (D26).
      const still = await em.find(
        StoredFile,
        { id: { $in: fileIds! } },
        { lockMode: LockMode.PESSIMISTIC_READ, fields: ['id'], disableIdentityMap: true },
      );
      if (still.length !== files.length)
        throw ValidationError.of('file_ids', 'A file of this quote was deleted meanwhile.');
      em.persist(quote);
      await em.flush();
      for (const file of files) await this.deps.files.attach(em, file, AttachmentOwner.QUOTE, quote.id);
    });
    return quote;
  }

  async get(ctx: Ctx, id: unknown): Promise<Quote> {
    const account = requireAccount(ctx.actor, 'quotes.read');
    if (!isId(id)) throw new NotFoundError();
    const quote = await ctx.em.findOne(Quote, { id, account });
    if (!quote) throw new NotFoundError();
    return quote;
  }

  /** Newest first; `status` filters on what clients see, expiry included (D3). */
  async list(ctx: Ctx, query: { status?: unknown; page?: unknown; per_page?: unknown }): Promise<Page<Quote>> {
    const account = requireAccount(ctx.actor, 'quotes.read');
    const v = new Validator(query);
    const status = v.oneOf('status', Object.values(QuoteStatus));
    const page = readPageRequest(v);
    v.done();
    const now = new Date();
    const byStatus: Record<QuoteStatus, FilterQuery<Quote>> = {
      [QuoteStatus.PRICED]: { storedStatus: QuoteStatus.PRICED, expiresAt: { $gt: now } },
      [QuoteStatus.EXPIRED]: { storedStatus: QuoteStatus.PRICED, expiresAt: { $lte: now } },
      [QuoteStatus.CONVERTED]: { storedStatus: QuoteStatus.CONVERTED },
    };
    const where = status ? { account, ...(byStatus[status] as object) } : { account };
    return paginate(ctx.em, Quote, where, page, { orderBy: { createdAt: 'desc', id: 'desc' } });
  }

  /** Discards a priced or expired quote; its files become deletable again unless something else uses them (D8). */
  async delete(ctx: Ctx, id: unknown): Promise<void> {
    requireAccount(ctx.actor, 'quotes.delete');
    const found = await this.get(ctx, id);
    await ctx.em.transactional(async (em: EntityManager) => {
      const quote = await em.findOneOrFail(
        Quote,
        { id: found.id },
        { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
      );
      if (quoteStatus(quote) === QuoteStatus.CONVERTED)
        throw ValidationError.of('quote', 'A converted quote cannot be deleted.');
      // Its attachments go with it (their foreign key cascades).
      await em.nativeDelete(Quote, { id: quote.id });
    });
  }

  /** A standard quote is refused at once when it could not be delivered, so nothing is paid for and then held (D29). */
  private async refuseUndeliverable(source: string, target: string, files: StoredFile[]): Promise<void> {
    const refusals = await this.deps.standard.refusals(source, target, files);
    if (Object.keys(refusals).length) throw new ValidationError(refusals);
  }

  private fileIds(v: Validator): string[] | undefined {
    const ids = v.array('file_ids', { required: true, min: 1, max: MAX_FILES_PER_QUOTE });
    if (!ids) return undefined;
    ids.forEach((id, index) => {
      // An id that cannot exist reads the same as someone else's: never a hint that a file exists (D8).
      if (!isId(id)) v.fail('file_ids', `The file_ids.${index} field must be one of your uploaded source files.`);
    });
    if (new Set(ids.map((id) => String(id).toLowerCase())).size !== ids.length)
      v.fail('file_ids', 'The file ids field has a duplicate value.');
    return ids.map((id) => String(id).toLowerCase());
  }

  private addonRequests(v: Validator): AddonRequest[] {
    const list = v.array('addons', { max: 10 }) ?? [];
    const requests: AddonRequest[] = [];
    list.forEach((entry, index) => {
      const item = v.nested(`addons.${index}`, entry);
      if (!item) return;
      const code = item.string('code', { required: true, max: 50 });
      const quantity = item.integer('quantity', { min: 1, max: MAX_COPIES });
      if (code === undefined) return;
      if (requests.some((request) => request.code === code))
        v.fail(`addons.${index}.code`, `The addons.${index}.code field has a duplicate value.`);
      else requests.push({ index, code, quantity });
    });
    return requests;
  }

  /** Add-on rules of D8, checked against the current catalog. */
  private resolveAddons(
    requests: AddonRequest[],
    catalog: Addon[],
    serviceType: ServiceType,
  ): { addon: Addon; quantity: number }[] {
    const v = new Validator({});
    const resolved = requests.flatMap(({ index, code, quantity }) => {
      const addon = catalog.find((candidate) => candidate.code === code);
      if (!addon) return (v.fail(`addons.${index}.code`, `The selected addons.${index}.code is invalid.`), []);
      if (addon.code === NOTARIZATION && serviceType !== ServiceType.CERTIFIED) {
        return (v.fail(`addons.${index}.code`, 'Notarization is only available on certified translations.'), []);
      }
      // Clients send a quantity with every add-on: 1 of a flat one is the add-on itself (D8).
      if (quantity !== undefined && quantity !== 1 && addon.pricingType !== AddonPricingType.PER_COPY) {
        return (
          v.fail(`addons.${index}.quantity`, `The addons.${index}.quantity field must be 1 for a flat add-on.`),
          []
        );
      }
      return [{ addon, quantity: quantity ?? 1 }];
    });
    v.done();
    return resolved;
  }
}
