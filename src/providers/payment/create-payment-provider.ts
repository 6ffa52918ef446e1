import type { PaymentConfig } from '../../config/app-config';
import type { PaymentProvider } from './payment-provider';
import { PayPalPaymentProvider } from './paypal-payment-provider';
import { SandboxPaymentProvider } from './sandbox-payment-provider';

export function createPaymentProvider(config: PaymentConfig, appUrl: string): PaymentProvider {
  return config.provider === 'paypal' ? new PayPalPaymentProvider(config, appUrl) : new SandboxPaymentProvider(appUrl);
}
