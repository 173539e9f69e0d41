import { describe, expect, it } from 'vitest';
import { escapeHtml, linkTo, renderMail } from './messages.ts';

const hostile = `<img src=x onerror="alert('x')"> & co`;

describe('e-mail rendering', () => {
  it('escapes every interpolated value in the HTML part, and keeps the text part as written', () => {
    const mail = renderMail(
      {
        subject: `Test validated: ${hostile}`,
        paragraphs: [`Your test "${hostile}" was validated.`],
        items: [{ label: hostile, url: `https://violet.example/a?x=1&y="2"` }, { label: `and ${hostile}` }],
        link: { label: hostile, url: 'https://violet.example/api/v1/tests/1?a=1&b=<2>' },
      },
      'test_validated',
    );
    const escaped = escapeHtml(hostile);
    expect(escaped).toBe('&lt;img src=x onerror=&quot;alert(&#39;x&#39;)&quot;&gt; &amp; co');
    expect(mail.html).not.toContain('<img');
    expect(mail.html).toContain(`<p>Your test &quot;${escaped}&quot; was validated.</p>`);
    expect(mail.html).toContain(`<li><a href="https://violet.example/a?x=1&amp;y=&quot;2&quot;">${escaped}</a></li>`);
    expect(mail.html).toContain(`<li>and ${escaped}</li>`);
    expect(mail.html).toContain(`<a href="https://violet.example/api/v1/tests/1?a=1&amp;b=&lt;2&gt;">${escaped}</a>`);
    expect(mail.text).toContain(`Your test "${hostile}" was validated.`);
    expect(mail.text).toContain(`${hostile}: https://violet.example/api/v1/tests/1?a=1&b=<2>`);
    expect(mail.text).toContain('email_test_validated');
  });

  it('keeps the subject on one line', () => {
    expect(
      renderMail({ subject: 'Campaign completed: a\r\nBcc: someone@else.example\t!', paragraphs: [], link: { label: 'l', url: 'u' } }, null)
        .subject,
    ).toBe('Campaign completed: a Bcc: someone@else.example !');
  });

  it('links under PUBLIC_URL, else the listening address, with each segment encoded', () => {
    expect(linkTo({ PUBLIC_URL: 'https://violet.example/', HOST: '0.0.0.0', PORT: 8000 }, 'techniques', 'T1059.001')).toBe(
      'https://violet.example/api/v1/techniques/T1059.001',
    );
    expect(linkTo({ PUBLIC_URL: undefined, HOST: '0.0.0.0', PORT: 8000 }, 'tests', 'a/b c')).toBe(
      'http://localhost:8000/api/v1/tests/a%2Fb%20c',
    );
  });
});
