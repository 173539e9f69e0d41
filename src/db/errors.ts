import { Prisma } from '../generated/prisma/client.ts';
import { ConflictError, DomainError, NotFoundError, ValidationError } from '../errors.ts';

/** The domain error an exception stands for, if any: domain errors themselves and known Prisma failures. */
export function domainErrorFrom(error: unknown): DomainError | null {
  if (error instanceof DomainError) return error;
  if (error instanceof Prisma.PrismaClientKnownRequestError) {
    switch (error.code) {
      case 'P2002':
        return new ConflictError('A record with the same unique value already exists');
      case 'P2025':
        return new NotFoundError('Record');
      case 'P2003':
        return new ValidationError(null, 'A referenced record does not exist');
      case 'P2023':
        return new ValidationError(null, 'Malformed identifier (expected a UUID)');
      case 'P2034':
        return new ConflictError('The record was changed by someone else at the same time; retry');
    }
  }
  return null;
}
