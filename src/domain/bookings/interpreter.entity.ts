import { ArrayType, Entity, Index, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, ID, ObjectType } from 'type-graphql';
import { InterpretationMode } from '../catalog/catalog.enums';
import { newId } from '../shared/ids';

/** What an interpreter is certified for (D32): court dates and depositions need COURT_CERTIFIED, ASL needs ASL_CERTIFIED. */
export enum InterpreterQualification {
  COURT_CERTIFIED = 'COURT_CERTIFIED',
  MEDICAL_CERTIFIED = 'MEDICAL_CERTIFIED',
  ASL_CERTIFIED = 'ASL_CERTIFIED',
}

/**
 * An interpreter the desk keeps on record (D32): who may be confirmed for a booking. Staff read every field; a client
 * reads only the name and qualifications of the one confirmed for its booking, never the e-mail.
 */
@ObjectType({ description: 'Staff only: an interpreter the desk can confirm for bookings.' })
@Entity({ tableName: 'interpreters' })
// The search lists active interpreters by name, its languages matched with `@>` on a GIN index.
@Index({ name: 'interpreters_active_name', properties: ['active', 'name', 'id'] })
@Index({
  name: 'interpreters_languages_gin',
  expression: `create index "interpreters_languages_gin" on "interpreters" using gin ("languages")`,
})
export class Interpreter {
  [OptionalProps]?: 'createdAt' | 'updatedAt';

  @Field(() => ID)
  @PrimaryKey({ type: 'uuid' })
  id: string = newId();

  @Field()
  @Property({ type: 'string', length: 255 })
  name!: string;

  @Field()
  @Property({ type: 'string', length: 254, unique: true })
  email!: string;

  @Field(() => [String], { description: 'Language codes of the catalog.' })
  @Property({ type: ArrayType })
  languages!: string[];

  @Field(() => [InterpretationMode])
  @Property({ type: ArrayType })
  modes!: InterpretationMode[];

  @Field(() => [InterpreterQualification])
  @Property({ type: ArrayType })
  qualifications: InterpreterQualification[] = [];

  @Field(() => String, { nullable: true, description: 'Free text: certificate numbers, issuing courts.' })
  @Property({ type: 'text', nullable: true })
  credentials: string | null = null;

  @Field(() => Boolean, { description: 'Only active interpreters can be confirmed for a booking.' })
  @Property({ type: 'boolean' })
  active = true;

  @Field()
  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Field()
  @Property({ type: 'datetime', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}

/** What a client sees of the interpreter confirmed for its booking (D32): never the e-mail. */
export type AssignedInterpreter = Pick<Interpreter, 'name' | 'qualifications'>;
