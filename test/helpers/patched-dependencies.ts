import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { patchSource } from '../../scripts/dependency-patches.mjs';

/** The path of a file of an installed dependency. */
export const dependency = (path: string) => fileURLToPath(new URL(`../../node_modules/${path}`, import.meta.url));

/**
 * A CommonJS module of a dependency loaded with the build's patches (scripts/dependency-patches.mjs), and so are the
 * modules of the same package (under `root`) it requires; other packages come from Node as installed.
 */
export function loadPatched(path: string, root: string, modules = new Map<string, { exports: Record<string, unknown> }>()) {
  const cached = modules.get(path);
  if (cached) return cached.exports;
  const module = { exports: {} as Record<string, unknown> };
  modules.set(path, module);
  const source = readFileSync(path, 'utf8');
  const local = createRequire(path);
  const requireFrom = (specifier: string) => {
    const resolved = local.resolve(specifier);
    return resolved.startsWith(root) ? loadPatched(resolved, root, modules) : local(specifier);
  };
  new Function('exports', 'module', 'require', patchSource(source, path))(module.exports, module, requireFrom);
  return module.exports;
}

/** graphql-js as the build bundles it: every module of the package patched. */
export const patchedGraphql = () => loadPatched(dependency('graphql/index.js'), dependency('graphql/')) as typeof import('graphql');
