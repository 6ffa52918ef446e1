import { Arg, Ctx, FieldResolver, Query, Resolver, Root } from 'type-graphql';
import { IssuedCertificate } from '../../../domain/certification/issued-certificate.entity';
import type { GraphQLContext } from '../context';

/** Public verification of a certificate of accuracy (D20), as GET /api/v1/certificates/{code}. No key needed. */
@Resolver(() => IssuedCertificate)
export class CertificateResolver {
  @Query(() => IssuedCertificate, {
    nullable: true,
    description: 'What the certificate with this verification code states; null with NOT_FOUND for an unknown code.',
  })
  certificate(@Ctx() { ctx, services }: GraphQLContext, @Arg('code') code: string): Promise<IssuedCertificate> {
    return services.certificates.verify(ctx, code);
  }

  @FieldResolver(() => Boolean, {
    description: "Whether a revision's certificate replaced this one (D30); `supersededBy` names it.",
  })
  superseded(@Root() certificate: IssuedCertificate): boolean {
    return certificate.supersededBy !== null;
  }

  @FieldResolver(() => Date, {
    nullable: true,
    description:
      "When the certified documents were deleted under the client's retention policy (D33); the hashes still verify a copy.",
  })
  documentsDeletedAt(@Root() certificate: IssuedCertificate): Date | null {
    return certificate.order.documentsDeletedAt;
  }

  @FieldResolver(() => String, { description: 'The public verification page.' })
  verificationUrl(@Root() certificate: IssuedCertificate, @Ctx() { services }: GraphQLContext): string {
    return services.certificates.verificationUrl(certificate.code);
  }

  @FieldResolver(() => String, { description: "The same as `code`, by the name the order's certificate uses (D29)." })
  verificationCode(@Root() certificate: IssuedCertificate): string {
    return certificate.code;
  }

  @FieldResolver(() => String, {
    description: "The same as `verificationUrl`, by the name the order's certificate uses (D29).",
  })
  verifyUrl(@Root() certificate: IssuedCertificate, @Ctx() { services }: GraphQLContext): string {
    return services.certificates.verificationUrl(certificate.code);
  }
}
