import 'reflect-metadata';
import './types/enums';
import type { GraphQLSchema } from 'graphql';
import { buildSchema } from 'type-graphql';
import { authChecker } from './auth-checker';
import { BookingFieldsResolver, BookingResolver } from './partner/booking.resolver';
import { FileResolver } from './partner/file.resolver';
import { MeResolver } from './partner/me.resolver';
import { OrderFieldsResolver, OrderResolver } from './partner/order.resolver';
import { QuoteResolver } from './partner/quote.resolver';
import { StaffBookingResolver } from './staff/booking.resolver';
import { StaffOrderResolver } from './staff/order.resolver';
import { NotarizationFieldsResolver, OrderDeskFieldsResolver } from './staff/order-desk-fields.resolver';
import { CertificateResolver } from './public/certificate.resolver';
import { CatalogResolver } from './public/catalog.resolver';
import { DateTimeScalar } from './scalars/date-time.scalar';
import { StaffAccountResolver } from './staff/account.resolver';
import { AuditResolver } from './staff/audit.resolver';
import { SentEmailResolver } from './staff/sent-email.resolver';
import { RateResolver } from './staff/rate.resolver';
import { StaffUserResolver } from './staff/staff-user.resolver';

/** The public, partner and staff halves in one schema (D14). */
export function buildGraphQLSchema(): Promise<GraphQLSchema> {
  return buildSchema({
    resolvers: [CatalogResolver, CertificateResolver, MeResolver, FileResolver, QuoteResolver, OrderResolver, OrderFieldsResolver, StaffOrderResolver, OrderDeskFieldsResolver, NotarizationFieldsResolver, BookingResolver, BookingFieldsResolver, StaffBookingResolver, StaffAccountResolver, StaffUserResolver, RateResolver, AuditResolver, SentEmailResolver],
    authChecker,
    scalarsMap: [{ type: Date, scalar: DateTimeScalar }],
    // Input rules live in the services, shared with REST; class-validator would be a second rule set.
    validate: false,
  });
}
