import { setShippingAddressCommand } from '../../../domain/orders/shipping.commands';
import { dataOf, json, ref, responseRef } from './components';
import { exampleOrderProcessing, exampleShippingAddress } from './examples';
import { requestBodySchema } from './request-schema';

export const shippingSchemas = {
  ShippingAddressRequest: {
    ...requestBodySchema(setShippingAddressCommand, {
      name: 'Who receives the parcel.',
      line1: 'Street address.',
      line2: 'Suite, floor or care-of line; left out (or null) when there is none.',
      city: 'City or town.',
      region: 'State, province or county, where the country uses one; left out (or null) otherwise.',
      postal_code: 'Postal or ZIP code.',
      country: 'ISO 3166-1 alpha-2 country code, in any case; kept in upper case.',
    }),
    description:
      'Where mailed hard copies go: only with the `hard_copy` add-on, optional on the quote (v1 quotes never send it) and settable later with `PUT /orders/{id}/shipping_address`. ' +
      'Invalid fields are 422 under `shipping_address.<field>` on a quote, under `<field>` on the PUT.',
  },
};

/** D22: the address of an order's hard copies, given after the quote. */
export const shippingPaths = {
  '/orders/{id}/shipping_address': {
    put: {
      operationId: 'setOrderShippingAddress',
      tags: ['Orders'],
      summary: 'Set where the hard copies of an order go',
      description:
        'For an order with the `hard_copy` add-on, in any status but `cancelled`, until staff ship the hard copies: sets or replaces `shipping_address` ' +
        '(`shipping_address_required` becomes false). The same address again changes nothing (idempotent). An order that completes without an address is ' +
        'not held: the account is e-mailed once asking for it, with a signed link to a page of the service where a person gives it (saved as this request saves it), and the copies ship once it is set. Refusals are 422: invalid fields under `<field>` ' +
        '(`postal_code`, `country`, ...), an order without hard copies under `shipping_address`, a cancelled order under `status`, hard copies already shipped under `shipment`.',
      parameters: [
        {
          name: 'id',
          in: 'path',
          required: true,
          schema: ref('Id'),
          description: 'Order id, as answered when it was made.',
        },
      ],
      requestBody: {
        required: true,
        description: 'The address itself.',
        content: { 'application/json': { schema: ref('ShippingAddressRequest'), example: exampleShippingAddress } },
      },
      responses: {
        200: json(dataOf(ref('Order'), 'The order, with its address.'), 'The order.', {
          data: { ...exampleOrderProcessing, shipping_address: exampleShippingAddress },
        }),
        401: responseRef('Unauthenticated'),
        403: responseRef('Forbidden'),
        404: responseRef('NotFound'),
        422: responseRef('ValidationFailed'),
      },
    },
  },
};
