import { GraphQLUpload, type FileUpload } from 'graphql-upload-minimal';
import { Arg, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { FileType, StoredFile } from '../../../domain/files/file.entity';
import { Role } from '../auth-checker';
import { Authorized } from '../authorized';
import type { GraphQLContext } from '../context';

/** Files on the partner door: the same service as REST /files. */
@Authorized(Role.ACCOUNT)
@Resolver(() => StoredFile)
export class FileResolver {
  @Query(() => StoredFile, {
    nullable: true,
    description:
      'One of your files; null (with a NOT_FOUND error) for an unknown id, leaving the rest of the request answered.',
  })
  file(@Ctx() { ctx, services }: GraphQLContext, @Arg('id', () => ID) id: string): Promise<StoredFile> {
    return services.files.get(ctx, id);
  }

  @Authorized('files.upload')
  @Mutation(() => StoredFile, {
    description: 'Multipart upload (send Apollo-Require-Preflight). PDF, DOCX, JPEG or PNG, up to the size limit.',
  })
  async uploadFile(
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('file', () => GraphQLUpload) file: Promise<FileUpload>,
    @Arg('type', () => FileType, { nullable: true, description: 'Only SOURCE may be uploaded (the default).' })
    type?: FileType,
  ): Promise<StoredFile> {
    const upload = await file;
    return services.files.upload(ctx, { stream: upload.createReadStream(), filename: upload.filename, type });
  }

  @Mutation(() => Boolean, { description: 'Deletes a file no quote or order uses.' })
  async deleteFile(@Ctx() { ctx, services }: GraphQLContext, @Arg('id', () => ID) id: string): Promise<boolean> {
    await services.files.delete(ctx, id);
    return true;
  }

  @FieldResolver(() => String, {
    nullable: true,
    description: 'Translations and certificates: a signed link valid 5 minutes.',
  })
  downloadUrl(@Root() file: StoredFile, @Ctx() { services }: GraphQLContext): string | null {
    return services.files.downloadUrl(file);
  }
}
