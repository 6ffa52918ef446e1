import { LockMode, type EntityManager, type FilterQuery } from '@mikro-orm/core';
import { requireAccount } from '../identity/guards';
import { placedBy } from '../identity/placed-by';
import { AddonPricingType, ServiceType } from '../catalog/catalog.enums';
import type { CatalogService } from '../catalog/catalog.service';
import { Addon, ServiceRate } from '../catalog/rates.entity';
import type { StandardOffer } from './standard-offer';
import { AnalysisStatus, FileType, StoredFile } from '../files/file.entity';
import { AttachmentOwner } from '../files/file-attachment.entity';
import type { FilesService } from '../files/files.service';
import type { Ctx } from '../identity/context';
import { type FieldErrors, NotFoundError, ValidationError } from '../../shared/errors';
import { isId } from '../shared/ids';
import { Page, pageRequest, paginate } from '../shared/pagination';
import { retryingTransaction } from '../shared/transaction';
import { ensureWithinMaximumTotal } from '../shared/money';
import { priceQuote } from './quote-pricing';
import { Quote, QuoteStatus, quoteStatus } from './quote.entity';
import type { CreateQuote, ListQuotes } from './quote.commands';
import { shippingAddressOf } from './shipping-address';

const NOTARIZATION = 'notarization';

interface AddonRequest {
  code: string;
  quantity?: number;
}

/**
 * D30: a client's unit count may raise what the service counted but not lower it: a scan or a document too long to
 * count is billed at least its physical pages (one for a file that does not say).
 */
function ensureAtLeastTheirPages(uncounted: StoredFile[], unitCount: number): void {
  const pages = uncounted.reduce((sum, file) => sum + (file.documentPages ?? 1), 0);
  if (unitCount < pages)
    throw ValidationError.of(
      'unit_count',
      `The unit count must be at least ${pages}: the pages of the files whose words could not be counted.`,
    );
}

/** Instant quotes (`createQuote`, `listQuotes`, `getQuote`, `deleteQuote`; D7, D8). Both doors call these methods. */
export class QuoteService {
  constructor(
    private readonly deps: { catalog: CatalogService; files: FilesService; standard: StandardOffer; ttlDays: number },
  ) {}

  async create(ctx: Ctx, command: CreateQuote): Promise<Quote> {
    const account = requireAccount(ctx.actor, 'quotes.create');
    const { sourceLanguage, targetLanguage, serviceType, fileIds, unitCount, reference, purchaseOrder } = command;
    if (account.purchaseOrderRequired && !purchaseOrder)
      throw ValidationError.of('purchase_order', 'The purchase order field is required for this account.');
    const shippingAddress = command.shippingAddress && shippingAddressOf(command.shippingAddress);

    const files = await ctx.em.find(StoredFile, { id: { $in: fileIds }, account, type: FileType.SOURCE });
    const missing = fileIds.findIndex((id) => !files.some((file) => file.id === id));
    if (missing >= 0)
      throw ValidationError.of('file_ids', `The file_ids.${missing} field must be one of your uploaded source files.`);
    const deleted = fileIds.findIndex((id) => files.find((file) => file.id === id)!.purgeReason);
    if (deleted >= 0)
      throw ValidationError.of(
        'file_ids',
        `The file_ids.${deleted} field is a file deleted under the retention policy.`,
      );

    // Counts are needed now: analyse what the background has not reached yet (D5).
    await this.deps.files.ensureAnalysed(ctx.em, files);
    if (serviceType === ServiceType.STANDARD)
      await this.refuseUndeliverable(
        sourceLanguage,
        targetLanguage,
        fileIds.map((id) => files.find((file) => file.id === id)!),
      );
    const uncounted = files.filter((file) => file.analysisStatus === AnalysisStatus.UNCOUNTABLE);
    const undetected = uncounted.length > 0;
    if (undetected && unitCount === undefined) {
      throw ValidationError.of(
        'unit_count',
        'The unit count field is required when a file has no detectable page or word count.',
      );
    }
    if (undetected && serviceType === ServiceType.CERTIFIED) ensureAtLeastTheirPages(uncounted, unitCount!);

    const [rate, catalogAddons] = await Promise.all([
      ctx.em.findOneOrFail(ServiceRate, { serviceType: serviceType }),
      ctx.em.find(Addon, {}),
    ]);
    const addons = this.resolveAddons(command.addons ?? [], catalogAddons, serviceType);
    const price = priceQuote({
      serviceType: serviceType,
      rate,
      files,
      // When every file was counted, a supplied unit_count is ignored (D8).
      undetectedUnits: undetected ? unitCount! : 0,
      addons,
    });
    ensureWithinMaximumTotal(price.totalCents, price.currency, undetected ? 'unit_count' : 'file_ids');

    const createdAt = new Date();
    const fields = {
      account,
      placedBy: placedBy(ctx.actor),
      serviceType: serviceType,
      sourceLanguage: sourceLanguage,
      targetLanguage: targetLanguage,
      fileIds: fileIds,
      reference: reference ?? null,
      purchaseOrder: purchaseOrder ?? null,
      instructions: command.instructions ?? null,
      shippingAddress: shippingAddress ?? null,
      // From the quote's own creation instant: expires_at is exactly created_at + QUOTE_TTL_DAYS (D8).
      createdAt,
      expiresAt: new Date(createdAt.getTime() + this.deps.ttlDays * 24 * 60 * 60 * 1000),
      ...price,
    };
    return retryingTransaction(ctx.em, async (em) => {
      // A fresh entity each attempt: one flushed by an attempt that was rolled back would pass for inserted.
      const quote = em.create(Quote, fields);
      // A file deleted since it was read cannot be quoted: the share lock waits for a deletion under way (D26).
      const still = await em.find(
        StoredFile,
        { id: { $in: fileIds } },
        { lockMode: LockMode.PESSIMISTIC_READ, fields: ['id'], disableIdentityMap: true },
      );
      if (still.length !== files.length)
        throw ValidationError.of('file_ids', 'A file of this quote was deleted meanwhile.');
      em.persist(quote);
      await em.flush();
      for (const file of files) await this.deps.files.attach(em, file, AttachmentOwner.QUOTE, quote.id);
      return quote;
    });
  }

  async get(ctx: Ctx, id: unknown): Promise<Quote> {
    const account = requireAccount(ctx.actor, 'quotes.read');
    if (!isId(id)) throw new NotFoundError();
    const quote = await ctx.em.findOne(Quote, { id, account });
    if (!quote) throw new NotFoundError();
    return quote;
  }

  /** Newest first; `status` filters on what clients see, expiry included (D3). */
  async list(ctx: Ctx, command: ListQuotes): Promise<Page<Quote>> {
    const account = requireAccount(ctx.actor, 'quotes.read');
    const { status } = command;
    const now = new Date();
    const byStatus: Record<QuoteStatus, FilterQuery<Quote>> = {
      [QuoteStatus.PRICED]: { storedStatus: QuoteStatus.PRICED, expiresAt: { $gt: now } },
      [QuoteStatus.EXPIRED]: { storedStatus: QuoteStatus.PRICED, expiresAt: { $lte: now } },
      [QuoteStatus.CONVERTED]: { storedStatus: QuoteStatus.CONVERTED },
    };
    const where = status ? { account, ...(byStatus[status] as object) } : { account };
    return paginate(ctx.em, Quote, where, pageRequest(command), { orderBy: { createdAt: 'desc', id: 'desc' } });
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

  /** Add-on rules of D8, checked against the current catalog. */
  private resolveAddons(
    requests: AddonRequest[],
    catalog: Addon[],
    serviceType: ServiceType,
  ): { addon: Addon; quantity: number }[] {
    const errors: FieldErrors = {};
    const fail = (field: string, message: string) => (errors[field] = [message]);
    const resolved = requests.flatMap(({ code, quantity }, index) => {
      const addon = catalog.find((candidate) => candidate.code === code);
      if (!addon) return (fail(`addons.${index}.code`, `The selected addons.${index}.code is invalid.`), []);
      if (addon.code === NOTARIZATION && serviceType !== ServiceType.CERTIFIED) {
        return (fail(`addons.${index}.code`, 'Notarization is only available on certified translations.'), []);
      }
      // Clients send a quantity with every add-on: 1 of a flat one is the add-on itself (D8).
      if (quantity !== undefined && quantity !== 1 && addon.pricingType !== AddonPricingType.PER_COPY) {
        return (
          fail(`addons.${index}.quantity`, `The addons.${index}.quantity field must be 1 for a flat add-on.`),
          []
        );
      }
      return [{ addon, quantity: quantity ?? 1 }];
    });
    if (Object.keys(errors).length) throw new ValidationError(errors);
    return resolved;
  }
}
