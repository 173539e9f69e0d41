import type { Plugin } from 'esbuild';

export interface DependencyPatch {
  name: string;
  file: RegExp;
  why: string;
  replacements: Array<[from: string, to: string]>;
}

export const DEPENDENCY_PATCHES: DependencyPatch[];
export function applyPatch(patch: DependencyPatch, source: string, path: string): string;
export const patchesFor: (path: string) => DependencyPatch[];
export const patchSource: (source: string, path: string) => string;
export function patchDependencies(): Plugin;
