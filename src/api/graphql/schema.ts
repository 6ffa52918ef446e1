import 'reflect-metadata';
import './types/enums';
import type { GraphQLSchema } from 'graphql';
import { buildSchema } from 'type-graphql';
import { authorizeFields } from './authorized';
import { BookingFieldsResolver, BookingResolver, PaymentOvertimeResolver } from './partner/booking.resolver';
import { CheckoutResolver } from './partner/checkout.resolver';
import { PaymentReceiptResolver } from './partner/payment-receipt.resolver';
import { FileResolver } from './partner/file.resolver';
import { MeResolver } from './partner/me.resolver';
import { AccountViewerResolver, MemberResolver } from './partner/member.resolver';
import { SignInResolver } from './public/sign-in.resolver';
import { OrderFieldsResolver, OrderResolver } from './partner/order.resolver';
import { OrderMessageResolver } from './partner/order-message.resolver';
import { QuoteResolver } from './partner/quote.resolver';
import { OrderShippingFieldsResolver, ShippingResolver } from './partner/shipping.resolver';
import { OrderRevisionFieldsResolver, RevisionResolver } from './partner/revision.resolver';
import { RetentionResolver } from './partner/retention.resolver';
import { BookingDeskFieldsResolver, StaffBookingResolver } from './staff/booking.resolver';
import { StaffOrderResolver } from './staff/order.resolver';
import { StaffOrderMessageResolver } from './staff/order-message.resolver';
import { NotarizationFieldsResolver, OrderDeskFieldsResolver } from './staff/order-desk-fields.resolver';
import { OrderMoneyFieldsResolver } from './staff/order-money-fields.resolver';
import { PaymentDeskFieldsResolver } from './staff/payment-desk-fields.resolver';
import { CertificateResolver } from './public/certificate.resolver';
import { CatalogResolver, PricingPolicyResolver } from './public/catalog.resolver';
import { DateTimeScalar } from './scalars/date-time.scalar';
import { StaffAccountResolver } from './staff/account.resolver';
import { InvoiceDeskFieldsResolver, StaffInvoiceResolver } from './staff/invoice.resolver';
import { InvoiceFieldsResolver, InvoiceResolver } from './partner/invoice.resolver';
import { AuditResolver } from './staff/audit.resolver';
import { SentEmailFieldsResolver, SentEmailResolver } from './staff/sent-email.resolver';
import { RateResolver } from './staff/rate.resolver';
import { StaffUserResolver } from './staff/staff-user.resolver';
import { InterpreterResolver } from './staff/interpreter.resolver';

/**
 * The public, partner and staff halves in one schema (D14). Built once per process: it depends on the code alone
 * (resolvers reach the services through the request's context), and building it costs about a second of CPU, paid
 * again by every app a process starts (the tests start several).
 */
export function buildGraphQLSchema(): Promise<GraphQLSchema> {
  built ??= build();
  built.catch(() => (built = undefined));
  return built;
}

let built: Promise<GraphQLSchema> | undefined;

function build(): Promise<GraphQLSchema> {
  return buildSchema({
    resolvers: [
      CatalogResolver,
      PricingPolicyResolver,
      CertificateResolver,
      SignInResolver,
      MeResolver,
      MemberResolver,
      AccountViewerResolver,
      FileResolver,
      QuoteResolver,
      OrderResolver,
      OrderFieldsResolver,
      OrderMessageResolver,
      ShippingResolver,
      OrderShippingFieldsResolver,
      RevisionResolver,
      RetentionResolver,
      OrderRevisionFieldsResolver,
      StaffOrderResolver,
      StaffOrderMessageResolver,
      OrderDeskFieldsResolver,
      NotarizationFieldsResolver,
      PaymentDeskFieldsResolver,
      OrderMoneyFieldsResolver,
      BookingResolver,
      BookingFieldsResolver,
      PaymentOvertimeResolver,
      PaymentReceiptResolver,
      StaffBookingResolver,
      BookingDeskFieldsResolver,
      InterpreterResolver,
      StaffAccountResolver,
      StaffUserResolver,
      RateResolver,
      AuditResolver,
      SentEmailResolver,
      InvoiceResolver,
      InvoiceFieldsResolver,
      StaffInvoiceResolver,
      InvoiceDeskFieldsResolver,
      SentEmailFieldsResolver,
      CheckoutResolver,
    ],
    scalarsMap: [{ type: Date, scalar: DateTimeScalar }],
    // Input rules live in the services, shared with REST; class-validator would be a second rule set.
    validate: false,
  }).then(authorizeFields);
}
