import { Arg, Ctx, Field, Mutation, ObjectType, Resolver } from 'type-graphql';
import { requireSession } from '../../../domain/identity/guards';
import { AccountMember, MEMBER_SUBJECT } from '../../../domain/identity/member.entity';
import { requestSignInCodeCommand, signInCommand } from '../../../domain/sign-in/sign-in.commands';
import { StaffUser } from '../../../domain/identity/staff-user.entity';
import { graphqlCommand } from '../../commands';
import type { GraphQLContext } from '../context';

@ObjectType()
class SignedIn {
  @Field({
    description: 'The session token (ltk_session_...), shown only here: send it as "Authorization: Bearer <token>".',
  })
  token!: string;
  @Field({ description: 'The latest end of the session; 12 hours without use end it sooner.' }) expiresAt!: Date;
  @Field(() => AccountMember, { nullable: true, description: 'Who signed in, for a member of an account.' })
  member!: AccountMember | null;
  @Field(() => StaffUser, {
    nullable: true,
    description: "Who signed in, for the operator's staff: the token is a staff session.",
  })
  staff!: StaffUser | null;
}

/** Sign-in without passwords (D27, and D28 for staff): a code by e-mail, traded for a session token. */
@Resolver()
export class SignInResolver {
  @Mutation(() => Boolean, {
    description: 'E-mails a 6-digit code (10 minutes, 5 tries). The answer is true whether or not the e-mail is known.',
  })
  async requestSignInCode(
    @Ctx() { ctx, services, clientAddress }: GraphQLContext,
    @Arg('email') email: string,
  ): Promise<boolean> {
    await services.signIn.requestCode(ctx, graphqlCommand(requestSignInCodeCommand, { email }), clientAddress);
    return true;
  }

  @Mutation(() => SignedIn)
  async signIn(
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('email') email: string,
    @Arg('code') code: string,
  ): Promise<SignedIn> {
    const { token, expiresAt, subject } = await services.signIn.signIn(
      ctx,
      graphqlCommand(signInCommand, { email, code }),
    );
    const member = subject.kind === MEMBER_SUBJECT ? await ctx.em.findOne(AccountMember, { id: subject.id }) : null;
    const staff = member ? null : await ctx.em.findOne(StaffUser, { id: subject.id });
    return { token, expiresAt, member, staff };
  }

  @Mutation(() => Boolean, {
    description: "Ends this session (a member's or staff's): its token answers 401 from the next request on.",
  })
  async signOut(@Ctx() { ctx, services }: GraphQLContext): Promise<boolean> {
    await services.signIn.signOut(ctx, requireSession(ctx.actor));
    return true;
  }
}
