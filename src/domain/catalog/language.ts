import { Field, ObjectType } from 'type-graphql';

@ObjectType()
export class Language {
  @Field({ description: 'BCP 47 code, used as source_language / target_language.' })
  code!: string;

  @Field({ description: 'English display name from CLDR.' })
  name!: string;
}
