/** Statements the schema diff never generates: rewriting a migration from the schema would silently drop them. */
const HAND_WRITTEN = [
  { pattern: /^\s*CREATE\s+(OR\s+REPLACE\s+)?(FUNCTION|PROCEDURE)\b/im, what: 'a function' },
  { pattern: /^\s*CREATE\s+(OR\s+REPLACE\s+)?(CONSTRAINT\s+)?TRIGGER\b/im, what: 'a trigger' },
  { pattern: /^\s*CREATE\s+(OR\s+REPLACE\s+)?(MATERIALIZED\s+)?VIEW\b/im, what: 'a view' },
  { pattern: /^\s*CREATE\s+(OR\s+REPLACE\s+)?RULE\b/im, what: 'a rule' },
  { pattern: /^\s*CREATE\s+POLICY\b/im, what: 'a row-level security policy' },
  { pattern: /^\s*DO\s+(\$\w*\$|')/im, what: 'an anonymous code block' },
  { pattern: /^\s*(INSERT\s+INTO|UPDATE\s+\S+\s+SET|DELETE\s+FROM)\b/im, what: 'a data change' },
  // The schema declares such a column `@default(dbgenerated())`, which the diff neither creates nor compares.
  { pattern: /\bGENERATED\s+ALWAYS\s+AS\s*\(/i, what: 'a generated column' },
] as const;

export interface HandWrittenStatement {
  line: number;
  what: string;
  text: string;
}

/** The hand-written statements of a migration, with their line numbers (comments ignored). */
export function handWrittenStatements(sql: string): HandWrittenStatement[] {
  const found: HandWrittenStatement[] = [];
  sql.split('\n').forEach((text, index) => {
    if (/^\s*--/.test(text)) return;
    const match = HAND_WRITTEN.find(({ pattern }) => pattern.test(text));
    if (match) found.push({ line: index + 1, what: match.what, text: text.trim() });
  });
  return found;
}
