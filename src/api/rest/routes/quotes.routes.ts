import { Router } from 'express';
import { createQuoteCommand, listQuotesCommand } from '../../../domain/quotes/quote.commands';
import type { Services } from '../../../services';
import { restCommand } from '../../commands';
import { authenticateAccount } from '../authenticate';
import { answerJson } from '../conditional';
import { listEnvelope } from '../pagination';
import { permit } from '../permit';
import { route } from '../routing';
import { serializeQuote } from '../serializers/quote.serializer';
import { sendCreated } from './location';

/** `createQuote`, `listQuotes`, `deleteQuote`, and D8's `getQuote`. Converting a quote comes with orders and payments. */
export function quotesRoutes(services: Services): Router {
  const router = Router();
  const { quotes, config } = services;
  const auth = authenticateAccount(services);

  route(router, '/quotes', {
    get: [
      auth,
      async (req, res) =>
        answerJson(
          req,
          res,
          listEnvelope(
            req,
            config.appUrl,
            await quotes.list(req.ctx, restCommand(listQuotesCommand, req.query)),
            serializeQuote,
          ),
        ),
    ],
    post: [
      auth,
      permit('quotes.create'),
      async (req, res) =>
        sendCreated(req, res, config.appUrl, {
          data: serializeQuote(await quotes.create(req.ctx, restCommand(createQuoteCommand, req.body))),
        }),
    ],
  });
  route(router, '/quotes/:id', {
    get: [
      auth,
      async (req, res) => answerJson(req, res, { data: serializeQuote(await quotes.get(req.ctx, req.params.id)) }),
    ],
    delete: [
      auth,
      async (req, res) => {
        await quotes.delete(req.ctx, req.params.id);
        res.status(204).end();
      },
    ],
  });
  return router;
}
