import { Arg, Args, Ctx, Field, Float, ID, InputType, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import { InterpretationMode } from '../../../domain/catalog/catalog.enums';
import {
  createInterpreterCommand,
  listInterpretersCommand,
  updateInterpreterCommand,
} from '../../../domain/bookings/interpreter.commands';
import { Interpreter, InterpreterQualification } from '../../../domain/bookings/interpreter.entity';
import { graphqlCommand } from '../../commands';
import { Role } from '../auth-checker';
import { Authorized } from '../authorized';
import type { GraphQLContext } from '../context';
import { PageArgs, PageOf, toPageResult, type PageResult } from '../types/page';

@InputType({ description: 'An interpreter record; on an update, a field left out stays as it is.' })
class InterpreterInput {
  @Field({ nullable: true }) name?: string;
  @Field({ nullable: true, description: 'Staff only; never shown to clients.' }) email?: string;
  @Field(() => [String], { nullable: true, description: 'Language codes of the catalog.' }) languages?: string[];
  @Field(() => [InterpretationMode], { nullable: true }) modes?: InterpretationMode[];
  @Field(() => [InterpreterQualification], { nullable: true }) qualifications?: InterpreterQualification[];
  @Field(() => String, { nullable: true, description: 'Free text; null clears it on an update.' })
  credentials?: string | null;
  @Field(() => Boolean, { nullable: true, description: 'Inactive interpreters cannot be confirmed for bookings.' })
  active?: boolean;
}

@ObjectType()
class InterpreterPage extends PageOf(Interpreter) {}

/** Staff: the interpreters the desk keeps (D32); who may do what is in the staff permission table, audited in the service. */
@Authorized(Role.STAFF)
@Resolver()
export class InterpreterResolver {
  @Query(() => InterpreterPage, {
    description:
      'Active interpreters by name who speak `language`, work in `mode` and hold `qualification`; with `availableAt` and `durationHours`, only those with no confirmed or awaiting-payment booking within 30 minutes of that time. With `bookingId`, the active ones who may be confirmed for that booking: its languages, mode and qualification, free at its time (the other filters are then unused). `includeInactive` lists inactive records too.',
  })
  async interpreters(
    @Ctx() { ctx, services }: GraphQLContext,
    @Args(() => PageArgs) pageArgs: PageArgs,
    @Arg('language', () => String, { nullable: true }) language?: string,
    @Arg('mode', () => InterpretationMode, { nullable: true }) mode?: InterpretationMode,
    @Arg('qualification', () => InterpreterQualification, { nullable: true })
    qualification?: InterpreterQualification,
    @Arg('availableAt', () => Date, { nullable: true }) availableAt?: Date,
    @Arg('durationHours', () => Float, { nullable: true }) durationHours?: number,
    @Arg('bookingId', () => ID, { nullable: true }) bookingId?: string,
    @Arg('includeInactive', () => Boolean, { nullable: true }) includeInactive?: boolean,
  ): Promise<PageResult<Interpreter>> {
    const command = graphqlCommand(listInterpretersCommand, {
      language,
      mode,
      qualification,
      availableAt: availableAt?.toISOString(),
      durationHours,
      bookingId,
      includeInactive,
      ...pageArgs,
    });
    return toPageResult(await services.interpreters.list(ctx, command));
  }

  @Mutation(() => Interpreter, { description: 'Name, e-mail, languages and modes are required. Audited.' })
  createInterpreter(
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('input', () => InterpreterInput) input: InterpreterInput,
  ): Promise<Interpreter> {
    return services.interpreters.create(ctx, graphqlCommand(createInterpreterCommand, input));
  }

  @Mutation(() => Interpreter, { description: 'Changes the fields given. Audited.' })
  updateInterpreter(
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('id', () => ID) id: string,
    @Arg('input', () => InterpreterInput) input: InterpreterInput,
  ): Promise<Interpreter> {
    return services.interpreters.update(ctx, id, graphqlCommand(updateInterpreterCommand, input));
  }
}
