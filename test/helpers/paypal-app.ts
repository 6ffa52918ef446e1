import { payPalConfig, startPayPalStandIn } from './paypal-stand-in';
import { startTestApp, type TestApp, type TestAppOptions } from './test-app';

export type PayPalStandIn = Awaited<ReturnType<typeof startPayPalStandIn>>;

/** A test app whose payments go through the PayPal provider, against a local server that speaks PayPal's API. */
export interface PayPalApp {
  t: TestApp;
  paypal: PayPalStandIn;
  close: () => Promise<void>;
}

export async function startPayPalApp(options: TestAppOptions = {}): Promise<PayPalApp> {
  const paypal = await startPayPalStandIn();
  const t = await startTestApp({ ...options, config: { ...options.config, payment: payPalConfig(paypal) } });
  return {
    t,
    paypal,
    close: async () => {
      await t.close();
      await paypal.close();
    },
  };
}
