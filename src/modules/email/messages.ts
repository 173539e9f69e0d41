import type { Config } from '../../config.ts';
import { publicBaseUrl } from '../../storage/index.ts';

export interface MailLink {
  label: string;
  url: string;
}

/** What an e-mail says, before rendering: every value is text, escaped for the HTML part. */
export interface MailContent {
  subject: string;
  paragraphs: string[];
  /** A list under the paragraphs, each entry optionally linked. */
  items?: { label: string; url?: string }[];
  /** The item the e-mail is about. */
  link: MailLink;
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]);

/** Headers are one line: control characters (CR, LF…) become spaces. */
const oneLine = (text: string) => text.replace(/\p{Cc}+/gu, ' ').trim();

/** Links to the service's REST resources, under PUBLIC_URL (else the listening address). */
export function linkTo(config: Pick<Config, 'PUBLIC_URL' | 'HOST' | 'PORT'>, ...segments: string[]): string {
  return `${publicBaseUrl(config)}/api/v1/${segments.map(encodeURIComponent).join('/')}`;
}

function footer(preference: string | null): string {
  const why = preference
    ? `You receive this because the preference email_${preference} is on; turn it off with PATCH /api/v1/users/me/preferences.`
    : 'Sent by an administrator to check the e-mail settings.';
  return `Violet, purple-team coverage. ${why}`;
}

/** A plain-text part and an HTML part of the same content; every interpolated value is escaped in HTML. */
export function renderMail(content: MailContent, preference: string | null): RenderedMail {
  const items = content.items ?? [];
  const text = [
    ...content.paragraphs,
    ...(items.length ? [items.map((item) => `- ${item.label}${item.url ? ` <${item.url}>` : ''}`).join('\n')] : []),
    `${content.link.label}: ${content.link.url}`,
    `-- \n${footer(preference)}`,
  ].join('\n\n');
  const anchor = (label: string, url: string) => `<a href="${escapeHtml(url)}">${escapeHtml(label)}</a>`;
  const html = [
    '<!doctype html>',
    '<html><head><meta charset="utf-8"></head>',
    '<body style="font-family: sans-serif; line-height: 1.5">',
    ...content.paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`),
    ...(items.length
      ? ['<ul>', ...items.map((item) => `<li>${item.url ? anchor(item.label, item.url) : escapeHtml(item.label)}</li>`), '</ul>']
      : []),
    `<p>${anchor(content.link.label, content.link.url)}</p>`,
    `<p style="color: #666; font-size: small">${escapeHtml(footer(preference))}</p>`,
    '</body></html>',
  ].join('\n');
  return { subject: oneLine(content.subject), text, html };
}
