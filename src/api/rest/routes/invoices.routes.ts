import { Router } from 'express';
import { invoiceContent } from '../../../domain/billing/invoice-document';
import { listInvoicesCommand } from '../../../domain/billing/invoice.commands';
import { invoicePdf } from '../../../documents/invoice-pdf';
import { NotFoundError } from '../../../shared/errors';
import type { Services } from '../../../services';
import { restCommand } from '../../commands';
import { authenticateAccount } from '../authenticate';
import { answerJson } from '../conditional';
import { listEnvelope } from '../pagination';
import { limitByAddress } from '../rate-limit';
import { route } from '../routing';
import { serializeInvoice } from '../serializers/invoice.serializer';

/**
 * D31: `GET /invoices` (newest first, paginated, `status`), `GET /invoices/{id}` with a signed `download_url`, and the
 * PDF that link opens for 5 minutes (the signature is the permission, as a file's download link's is).
 */
export function invoicesRoutes(services: Services): Router {
  const router = Router();
  const { invoices, invoiceLinks, config } = services;
  const auth = authenticateAccount(services);

  route(router, '/invoices', {
    get: [
      auth,
      async (req, res) =>
        answerJson(
          req,
          res,
          listEnvelope(
            req,
            config.appUrl,
            await invoices.list(req.ctx, restCommand(listInvoicesCommand, req.query)),
            (invoice) => serializeInvoice(invoice),
          ),
        ),
    ],
  });
  route(router, '/invoices/:id', {
    get: [
      auth,
      async (req, res) => {
        const invoice = await invoices.get(req.ctx, req.params.id);
        answerJson(req, res, { data: serializeInvoice(invoice, invoiceLinks.url(invoice.id)) });
      },
    ],
  });
  route(router, '/invoices/:id/pdf', {
    get: [
      limitByAddress(services),
      async (req, res) => {
        const id = String(req.params.id);
        if (!invoiceLinks.verify(id, req.query.expires, req.query.signature)) throw new NotFoundError();
        const invoice = await invoices.find(req.ctx.em, id);
        if (!invoice) throw new NotFoundError();
        const pdf = await invoicePdf(invoiceContent(invoice, invoice.account, config.company));
        res
          .type('application/pdf')
          .set({
            'Content-Disposition': `attachment; filename="${invoice.number}.pdf"`,
            'Cache-Control': 'private, no-store',
          })
          .send(Buffer.from(pdf));
      },
    ],
  });
  return router;
}
