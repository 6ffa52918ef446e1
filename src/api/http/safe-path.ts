import type { RequestHandler } from 'express';
import { isStorableText } from '../../domain/shared/field-readers';
import { notFoundHandler } from './error-handler';

/**
 * Refuses a path that is not valid percent-encoding (`%ff`, `%uD800`, an overlong `%C0%AE`) or that decodes to
 * text no resource can be named by (`%00`), before any route decodes it: 404 like any unknown id (D2, D25),
 * never the router's URIError.
 */
export const safePath: RequestHandler = (req, res, next) => {
  if (req.path.split('/').every(decodesToText)) return next();
  notFoundHandler(req, res, next);
};

function decodesToText(segment: string): boolean {
  try {
    return isStorableText(decodeURIComponent(segment));
  } catch {
    return false;
  }
}
