import { z } from 'zod';
import type { Services } from '../../services.ts';
import { parseInput } from '../../validation.ts';
import { resolveTechnique } from '../techniques/reference.ts';
import { confidenceRows, type ConfidenceRow } from './confidence.ts';
import { pageSchema } from './inputs.ts';

export interface LifecycleDashboard {
  techniques: ConfidenceRow[];
  total: number;
  averageConfidence: number | null;
  withFreshValidation: number;
  withoutActiveAsset: number;
  computedAt: string;
}

const dashboardSchema = z.object({ technique: z.string().trim().min(1).nullish() });

/** Detection confidence per technique (lowest first), with its terms, and a summary. */
export async function dashboard(services: Services, filter: unknown, paging: unknown): Promise<LifecycleDashboard> {
  const { technique } = parseInput(dashboardSchema, filter ?? {});
  const { offset, limit } = parseInput(pageSchema, paging ?? {});
  const only = technique ? [(await resolveTechnique(services.prisma, technique, 'technique')).id] : undefined;
  const rows = await confidenceRows(services.prisma, only);
  const total = rows.length;
  return {
    techniques: rows.slice(offset, offset + limit),
    total,
    averageConfidence: total ? Math.round((rows.reduce((sum, row) => sum + row.confidence, 0) / total) * 10) / 10 : null,
    withFreshValidation: rows.filter((row) => row.freshValidations > 0).length,
    withoutActiveAsset: rows.filter((row) => row.activeAssets === 0).length,
    computedAt: new Date().toISOString(),
  };
}
