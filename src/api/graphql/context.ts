import type { Ctx } from '../../domain/shared/context';
import type { Services } from '../../services';

/** What every resolver gets: the request's service context and the shared services. */
export interface GraphQLContext {
  ctx: Ctx;
  services: Services;
}
