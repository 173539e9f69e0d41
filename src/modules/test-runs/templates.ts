import type { TestTemplate } from '../../generated/prisma/client.ts';

/** Default value of each input argument: `{ name: { default } }` (Atomic Red Team) or `{ name: value }`. */
function argumentDefaults(inputArguments: unknown): Map<string, string> {
  const defaults = new Map<string, string>();
  if (!inputArguments || typeof inputArguments !== 'object' || Array.isArray(inputArguments)) return defaults;
  for (const [name, argument] of Object.entries(inputArguments)) {
    const value = argument && typeof argument === 'object' ? (argument as { default?: unknown }).default : argument;
    if (value != null && typeof value !== 'object') defaults.set(name, String(value));
  }
  return defaults;
}

/**
 * The procedure a test starts with: the template's command with its `#{argument}` placeholders filled
 * with the default values, followed by the cleanup command when there is one.
 */
export function procedureFrom(template: Pick<TestTemplate, 'procedure' | 'cleanupCommand' | 'inputArguments'>): string | null {
  const defaults = argumentDefaults(template.inputArguments);
  const fill = (text: string) => text.replace(/#\{([\w.-]+)\}/g, (placeholder, name: string) => defaults.get(name) ?? placeholder);
  const parts = [fill(template.procedure).trim()];
  if (template.cleanupCommand?.trim()) parts.push(`Cleanup:\n${fill(template.cleanupCommand).trim()}`);
  return parts.filter(Boolean).join('\n\n') || null;
}

/** The fields of a test pre-filled from a template (POST /tests/from-template, campaigns from a threat actor). */
export function fieldsFromTemplate(template: TestTemplate) {
  return {
    templateId: template.id,
    name: template.name,
    description: template.description,
    platform: template.platform ?? template.platforms[0] ?? null,
    procedureText: procedureFrom(template),
    toolUsed: template.toolUsed ?? template.executor ?? null,
    remediationSteps: template.suggestedRemediation || null,
  };
}
