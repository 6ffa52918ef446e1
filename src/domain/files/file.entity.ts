import { Entity, Enum, Index, ManyToOne, OptionalProps, PrimaryKey, Property, type Rel } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { Account } from '../identity/account.entity';
import { newId } from '../shared/ids';

export enum FileType {
  SOURCE = 'source',
  TRANSLATION = 'translation',
  CERTIFICATE = 'certificate',
}

/** Why a file's bytes were deleted (D33): the account's period ran out, or the client asked. */
export type PurgeReason = 'retention' | 'client_request';

/** D5: `pending` until analysed; then `counted`, or `uncountable` when no text could be counted. */
export enum AnalysisStatus {
  PENDING = 'pending',
  COUNTED = 'counted',
  UNCOUNTABLE = 'uncountable',
}

/** A document the service holds: its bytes are in storage under `storageKey`, everything else is here. */
@ObjectType('File')
@Entity({ tableName: 'files' })
@Index({ properties: ['account', 'createdAt'] })
// An account's files waiting for analysis, counted at each upload to order the analysis queue (files.service.ts).
@Index({
  name: 'files_pending_by_account',
  expression: `create index "files_pending_by_account" on "files" ("account_id") where "analysis_status" = 'pending'`,
})
// The sweep of unclaimed stored bytes asks by key (D25).
@Index({ properties: ['storageKey'] })
// Deletions decided whose bytes are not all gone yet, taken up again until they are (D33).
@Index({
  name: 'files_purge_unfinished',
  expression: `create index "files_purge_unfinished" on "files" ("id") where "purge_reason" is not null and "purged_at" is null`,
})
export class StoredFile {
  /** Defaulted here or by the database: `em.create` need not name them. */
  [OptionalProps]?: 'analysisStatus' | 'createdAt' | 'type';

  @Field(() => ID)
  @PrimaryKey({ type: 'uuid' })
  id: string = newId();

  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  account!: Rel<Account>;

  @Field(() => FileType)
  @Enum({ items: () => FileType })
  type: FileType = FileType.SOURCE;

  @Field()
  @Property({ type: 'string', length: 255 })
  name!: string;

  @Field({ description: 'Detected from the bytes, never taken from the client.' })
  @Property({ type: 'string', length: 100 })
  mimeType!: string;

  @Field(() => Int)
  @Property({ type: 'integer' })
  sizeBytes!: number;

  @Property({ type: 'string', length: 64 })
  sha256!: string;

  @Property({ type: 'string', length: 100 })
  storageKey!: string;

  /**
   * For a certified translation once delivered: its bytes as reviewed, before the certification footer was stamped
   * on (D20). A revision drafts from these (D30), so its certificate never stamps a second footer over the first.
   */
  @Index()
  @Property({ type: 'string', length: 100, nullable: true })
  unstampedStorageKey: string | null = null;

  /** For a translation: the source file it translates (one per source and order, D11). */
  @Index()
  @Property({ type: 'uuid', nullable: true })
  derivedFromId: string | null = null;

  @Field(() => AnalysisStatus)
  @Enum({ items: () => AnalysisStatus })
  analysisStatus: AnalysisStatus = AnalysisStatus.PENDING;

  /** Why a file is uncountable (no_text, encrypted, corrupt, too_many_pages, ...); for staff, not the contract. */
  @Property({ type: 'string', length: 50, nullable: true })
  analysisNote: string | null = null;

  @Field(() => Int, {
    nullable: true,
    description:
      "A source's certified billing pages: max(1, ceil(word_count / 250)) for the text, plus one per scanned page. A translation's or certificate's own pages (a PDF's, Word's count) where the document says them.",
  })
  @Property({ type: 'integer', nullable: true })
  pageCount: number | null = null;

  @Field(() => Int, {
    nullable: true,
    description:
      "Physical pages: a PDF's pages, 1 for an image, a DOCX's as Word saved them. Null while pending or unknown.",
  })
  @Property({ type: 'integer', nullable: true })
  documentPages: number | null = null;

  @Field(() => Int, {
    nullable: true,
    description: 'Pages with no text layer (scans, photos), each one billing page. Null while pending or unknown.',
  })
  @Property({ type: 'integer', nullable: true })
  scannedPages: number | null = null;

  @Field(() => Int, { nullable: true })
  @Property({ type: 'integer', nullable: true })
  wordCount: number | null = null;

  @Property({ type: 'datetime', nullable: true })
  analysedAt: Date | null = null;

  /**
   * Why its bytes are being or were deleted (D33): set, with no download served from then on, before a byte is
   * deleted; `purgedAt` follows once the bytes are gone.
   */
  @Property({ type: 'string', length: 20, nullable: true })
  purgeReason: PurgeReason | null = null;

  @Field(() => Date, {
    nullable: true,
    description: "When its bytes were deleted under the account's retention policy.",
  })
  @Property({ type: 'datetime', nullable: true })
  purgedAt: Date | null = null;

  @Field()
  @Property({ type: 'datetime' })
  createdAt: Date = new Date();
}
