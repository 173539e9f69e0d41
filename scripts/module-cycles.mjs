// `npm run cycles`: one madge pass (the options of .madgerc) over the service's folders fails on any import cycle
// between files, then folds the same graph to module folders, src/modules/<name>, and fails on any cycle between
// modules: a file-level check misses a module A that imports B through one file while B imports A through another.
import { readFileSync } from 'node:fs';
import madge from 'madge';

const FOLDERS = ['src', 'rest-adapter', 'workers', 'scripts'];
const MODULE = /^src\/modules\/([^/]+)\//;

const config = JSON.parse(readFileSync('.madgerc', 'utf8'));
const project = await madge(FOLDERS, { ...config, baseDir: process.cwd() });

const fileCycles = project.circular();
for (const cycle of fileCycles) console.error(`Cycle between files: ${[...cycle, cycle[0]].join(' → ')}`);
if (fileCycles.length) process.exit(1);
const graph = project.obj();
console.log(`No cycle between the ${Object.keys(graph).length} files.`);

const edges = new Map(); // module → Map(imported module → an example "file → file")
for (const [file, imports] of Object.entries(graph)) {
  const from = MODULE.exec(file)?.[1];
  if (!from) continue;
  for (const imported of imports) {
    const to = MODULE.exec(imported)?.[1];
    if (!to || to === from) continue;
    if (!edges.has(from)) edges.set(from, new Map());
    if (!edges.get(from).has(to)) edges.get(from).set(to, `${file} → ${imported}`);
  }
}

// Tarjan's strongly connected components: every component of more than one module holds a cycle.
const index = new Map();
const low = new Map();
const stack = [];
const onStack = new Set();
const components = [];
let next = 0;
function connect(module) {
  index.set(module, next);
  low.set(module, next++);
  stack.push(module);
  onStack.add(module);
  for (const to of edges.get(module)?.keys() ?? []) {
    if (!index.has(to)) {
      connect(to);
      low.set(module, Math.min(low.get(module), low.get(to)));
    } else if (onStack.has(to)) low.set(module, Math.min(low.get(module), index.get(to)));
  }
  if (low.get(module) === index.get(module)) {
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== module);
    if (component.length > 1) components.push(component.sort());
  }
}
for (const module of [...edges.keys()].sort()) if (!index.has(module)) connect(module);

if (components.length === 0) {
  console.log(`No cycle between the ${new Set([...edges.keys(), ...[...edges.values()].flatMap((m) => [...m.keys()])]).size} modules.`);
} else {
  for (const component of components) {
    console.error(`Cycle between modules: ${component.join(', ')}`);
    const members = new Set(component);
    for (const from of component)
      for (const [to, example] of edges.get(from) ?? []) if (members.has(to)) console.error(`  ${from} → ${to}  (${example})`);
  }
  process.exit(1);
}
