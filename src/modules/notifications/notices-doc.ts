import { ALL_ROLES, ROLE_ABBREVIATIONS } from '../../auth/roles.ts';
import { channelsOf, NOTICES, type Notice } from './notices.ts';
import { togglesOf } from './preferences.ts';

const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
const code = (text: string) => `\`${text}\``;

/** The notice table and each role's toggles as docs/notifications.md shows them (a test holds the page to it). */
export function noticeDocs(): string {
  const notices = (NOTICES as readonly Notice[]).map((notice) =>
    row([
      code(notice.key),
      `${code(notice.event)}${notice.condition ? ` when ${code(notice.condition)}` : ''}`,
      notice.to.map((audience) => audience.label).join(', '),
      channelsOf(notice).join(', '),
      code(notice.title),
    ]),
  );
  const toggles = (NOTICES as readonly Notice[]).map((notice) =>
    row([
      code(notice.key),
      ...ALL_ROLES.map((role) =>
        togglesOf(role)
          .filter((toggle) => toggle.endsWith(`_${notice.key}`))
          .map((toggle) => toggle.slice(0, -notice.key.length - 1))
          .join(', '),
      ),
    ]),
  );
  return [
    row(['Notice', 'Event', 'Recipients', 'Channels', 'In-app title']),
    row(['---', '---', '---', '---', '---']),
    ...notices,
    '',
    row(['Toggles (`<channel>_<notice>`)', ...ALL_ROLES.map((role) => ROLE_ABBREVIATIONS[role])]),
    row(['---', ...ALL_ROLES.map(() => '---')]),
    ...toggles,
  ].join('\n');
}
