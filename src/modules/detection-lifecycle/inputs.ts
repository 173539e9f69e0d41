import { z } from 'zod';
import { page } from '../../validation.ts';

export const LIFECYCLE_PAGE = { defaultLimit: 50, maxLimit: 200 } as const;
export const pageSchema = page(LIFECYCLE_PAGE.defaultLimit, LIFECYCLE_PAGE.maxLimit);

/** Platforms are stored lower-case and compare case-insensitively. */
export const platform = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .transform((value) => value.toLowerCase());
