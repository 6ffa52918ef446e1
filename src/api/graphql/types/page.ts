import { ArgsType, Field, Int, ObjectType, type ClassType } from 'type-graphql';
import { lastPage, MAX_PAGE, type Page } from '../../../domain/shared/pagination';

@ObjectType()
export class PageInfo {
  @Field(() => Int) page!: number;
  @Field(() => Int) perPage!: number;
  @Field(() => Int) total!: number;
  @Field(() => Int) lastPage!: number;
}

/** `page` and `perPage`, passed to the services, which own their limits (D3). */
@ArgsType()
export class PageArgs {
  @Field(() => Int, { nullable: true, description: `1 to ${MAX_PAGE}; default 1.` })
  page?: number;

  @Field(() => Int, { nullable: true, description: '1 to 100; default 15.' })
  perPage?: number;
}

export interface PageResult<T> {
  items: T[];
  pageInfo: PageInfo;
}

/** `{ items, pageInfo }` for one item type. */
export function PageOf<T extends object>(itemType: ClassType<T>) {
  @ObjectType()
  abstract class PageOfType implements PageResult<T> {
    @Field(() => [itemType]) items!: T[];
    @Field(() => PageInfo) pageInfo!: PageInfo;
  }
  return PageOfType;
}

export const toPageResult = <T>(page: Page<T>): PageResult<T> => ({
  items: page.items,
  pageInfo: { page: page.page, perPage: page.perPage, total: page.total, lastPage: lastPage(page) },
});
