import { Entity, ManyToOne, OneToOne, PrimaryKey, Property, type Rel } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { StoredFile } from '../files/file.entity';
import { Order } from '../orders/order.entity';

@ObjectType()
export class CertifiedDocument {
  @Field({ description: 'The delivered translation.' }) name!: string;
  @Field() sourceName!: string;
  @Field({ description: 'SHA-256 (hex) of the delivered translation file, footer included.' }) sha256!: string;
  @Field(() => Int) pageCount!: number;
}

@ObjectType()
export class CertifyingTranslator {
  @Field() name!: string;
  @Field(() => String, { nullable: true }) credentials!: string | null;
}

/**
 * D20: what a certificate of accuracy stated when it was issued, kept as it was, so the public verification
 * answers the same years later whatever happens to accounts and staff profiles. Only the account's name is kept.
 */
@ObjectType('Certificate')
@Entity({ tableName: 'certificates' })
export class IssuedCertificate {
  @Field({ description: 'The verification code printed on the certificate and on every translated page.' })
  @PrimaryKey({ type: 'string', length: 19 })
  code!: string;

  @OneToOne(() => Order, { owner: true, unique: true, deleteRule: 'cascade' })
  order!: Rel<Order>;

  /** The certificate PDF (generated, or uploaded by staff). */
  @ManyToOne(() => StoredFile, { deleteRule: 'restrict' })
  file!: Rel<StoredFile>;

  @Field()
  @Property({ type: 'string', length: 30 })
  orderNumber!: string;

  @Field()
  @Property({ type: 'string', length: 255 })
  accountName!: string;

  @Field()
  @Property({ type: 'string', length: 20 })
  sourceLanguage!: string;

  @Field()
  @Property({ type: 'string', length: 20 })
  targetLanguage!: string;

  @Field(() => CertifyingTranslator)
  @Property({ type: 'json' })
  translator!: CertifyingTranslator;

  @Field()
  @Property({ type: 'boolean' })
  notarized!: boolean;

  @Field(() => [CertifiedDocument])
  @Property({ type: 'json' })
  documents!: CertifiedDocument[];

  @Field(() => String, {
    nullable: true,
    description: "The code of the revision's certificate that superseded this one (D30); null while it stands.",
  })
  @Property({ type: 'string', length: 19, nullable: true })
  supersededBy: string | null = null;

  @Field()
  @Property({ type: 'datetime' })
  issuedAt: Date = new Date();
}
