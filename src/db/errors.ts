import pg from 'pg';
import { Prisma } from '../generated/prisma/client.ts';
import { ConflictError, DomainError, NotFoundError, ServiceUnavailableError, ValidationError } from '../errors.ts';

/**
 * What the pg pool raises when no connection frees up within `connectionTimeoutMillis`, and when opening a
 * new connection takes longer than that (a database too busy to accept one in time).
 */
const POOL_TIMEOUTS = ['timeout exceeded when trying to connect', 'Connection terminated due to connection timeout'];

/** Seconds a client is asked to wait after the database was too busy. */
export const BUSY_RETRY_AFTER_SECONDS = 2;

const busy = () => new ServiceUnavailableError('The service is busy; retry shortly', BUSY_RETRY_AFTER_SECONDS);

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
      // P2024: no pool connection in time; P2028: a transaction could not start (maxWait) or outlived its timeout.
      case 'P2024':
      case 'P2028':
        return busy();
    }
  }
  if (error instanceof Error && POOL_TIMEOUTS.some((message) => error.message.includes(message))) return busy();
  const sqlState = postgresCodeOf(error);
  const reason = sqlState ? INPUT_REFUSALS[sqlState] : undefined;
  return reason ? new ValidationError(null, reason) : null;
}

/**
 * PostgreSQL's refusals of a value it was given (SQLSTATE class 22 and 54001). Input checks at the edge should
 * stop these first; this is the safety net that keeps one that slips through a 400, not a 500.
 */
const INPUT_REFUSALS: Record<string, string> = {
  '22001': 'A value is longer than its field allows',
  '22003': 'A number is out of range',
  '22007': 'A date or time is malformed',
  '22008': 'A date or time is out of range',
  '22021': 'A text contains a character that cannot be stored',
  '22025': 'A search pattern ends with an unfinished escape',
  '2201B': 'A pattern is not a valid regular expression',
  '22P02': 'A value is malformed for its type (e.g. an id that is not a UUID)',
  '22P05': 'A text contains a character that cannot be stored',
  '54001': 'The request is too complex to evaluate',
};

/**
 * The SQLSTATE of a database error, as the pg driver adapter reports it inside Prisma's errors, or as the pg driver
 * raises it to a raw read (src/db/raw-reads.ts).
 */
function postgresCodeOf(error: unknown): string | undefined {
  if (error instanceof pg.DatabaseError) return error.code;
  const meta = (error as { meta?: { driverAdapterError?: { cause?: { originalCode?: string } } } } | null)?.meta;
  const cause = meta?.driverAdapterError?.cause ?? (error as { cause?: { originalCode?: string } } | null)?.cause;
  return typeof cause?.originalCode === 'string' ? cause.originalCode : undefined;
}
