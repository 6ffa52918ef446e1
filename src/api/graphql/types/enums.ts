import { registerEnumType } from 'type-graphql';
import { AccountStatus } from '../../../domain/accounts/account.entity';
import { BookingSetting, BookingStatus } from '../../../domain/bookings/booking.entity';
import { AddonPricingType, BillingUnit, InterpretationMode, ServiceType } from '../../../domain/catalog/catalog.enums';
import { AnalysisStatus, FileType } from '../../../domain/files/file.entity';
import { OrderStatus } from '../../../domain/orders/order.entity';
import { ReviewKind } from '../../../domain/orders/translation-review.entity';
import { QuoteStatus } from '../../../domain/quotes/quote.entity';
import { StaffRole } from '../../../domain/staff/staff-user.entity';

/** GraphQL shows the UPPER_SNAKE keys; resolvers and services see the lower-case values REST uses. */
registerEnumType(AccountStatus, { name: 'AccountStatus' });
registerEnumType(StaffRole, { name: 'StaffRole' });
registerEnumType(ServiceType, { name: 'ServiceType' });
registerEnumType(BillingUnit, { name: 'BillingUnit' });
registerEnumType(AddonPricingType, { name: 'AddonPricingType' });
registerEnumType(InterpretationMode, { name: 'InterpretationMode' });
registerEnumType(FileType, { name: 'FileType' });
registerEnumType(AnalysisStatus, { name: 'AnalysisStatus' });
registerEnumType(QuoteStatus, { name: 'QuoteStatus' });
registerEnumType(OrderStatus, { name: 'OrderStatus' });
registerEnumType(ReviewKind, { name: 'ReviewKind' });
registerEnumType(BookingStatus, { name: 'InterpretationBookingStatus' });
registerEnumType(BookingSetting, { name: 'InterpretationSetting' });
