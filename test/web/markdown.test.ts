import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { createMarkdownRenderer } from '../../web/src/markdown/render.ts';

const { window } = new JSDOM('');
const render = createMarkdownRenderer(window as never);
const dom = (source: string) => {
  const holder = window.document.createElement('div');
  holder.innerHTML = render(source);
  return holder;
};

describe('the markdown renderer', () => {
  it('renders headings (two levels down, under the page\'s sections), emphasis, lists, code, tables and links to http(s) and mailto with rel="noopener noreferrer"', () => {
    const out = dom(
      '# Title\n\n*em* **strong** `code`\n\n- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n[site](https://attack.mitre.org/) <mailto:soc@example.test>',
    );
    expect(out.querySelector('h3')?.textContent).toBe('Title');
    expect(out.querySelectorAll('li')).toHaveLength(2);
    expect(out.querySelector('td')?.textContent).toBe('1');
    const links = [...out.querySelectorAll('a')].map((a) => [a.getAttribute('href'), a.getAttribute('rel')]);
    expect(links).toEqual([
      ['https://attack.mitre.org/', 'noopener noreferrer'],
      ['mailto:soc@example.test', 'noopener noreferrer'],
    ]);
  });

  it('shows raw HTML as text: no script, handler, style, frame, form or image element, only known tags and attributes', () => {
    const hostile = [
      '<script>alert(1)</script>',
      '<img src=x onerror=alert(2)>',
      '<svg onload=alert(3)><circle /></svg>',
      '<iframe src="https://evil.example/"></iframe>',
      '<style>body{background:url(https://evil.example/x)}</style>',
      '<form action="https://evil.example/"><button formaction="javascript:alert(4)">go</button></form>',
      '<p style="background:url(https://evil.example/)" onclick="alert(5)">styled</p>',
      '<math><mi xlink:href="javascript:alert(6)">x</mi></math>',
      '<object data="https://evil.example/x.swf"></object><embed src="https://evil.example/">',
      'Inline <b onclick="alert(7)">bold</b> and <a href="https://ok.example/" target="_blank">ok</a> [fine](https://ok.example/)',
      'ATT&CK style <code>cmd.exe /c</code> and <CODE >x</CODE>',
    ].join('\n\n');
    const out = dom(hostile);
    const tags = new Set([...out.querySelectorAll('*')].map((element) => element.tagName.toLowerCase()));
    expect([...tags].sort()).toEqual(['a', 'code', 'p']);
    const attributes = new Set([...out.querySelectorAll('*')].flatMap((element) => element.getAttributeNames()));
    expect([...attributes].sort()).toEqual(['href', 'rel']);
    expect([...out.querySelectorAll('a')].map((a) => a.getAttribute('href'))).toEqual(['https://ok.example/']);
    expect(out.textContent).toContain('<script>alert(1)</script>');
    expect(out.textContent).toContain('<b onclick="alert(7)">bold and <a href="https://ok.example/" target="_blank">ok</a>');
    expect([...out.querySelectorAll('code')].map((code) => code.textContent)).toEqual(['cmd.exe /c', 'x']);
  });

  it('keeps no javascript:, data:, vbscript: or relative links, however they are spelt', () => {
    const sources = [
      '[a](javascript:alert(1))',
      '[b](JaVaScRiPt:alert(1))',
      '[c](java\tscript:alert(1))',
      '[d](&#106;avascript:alert(1))',
      '[e](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
      '[f](vbscript:msgbox(1))',
      '<a href="javascript:alert(1)">g</a>',
      '<a href=" javascript:alert(1)">h</a>',
      '[i](//evil.example/)',
      '[j](/local/path)',
      '<javascript:alert(1)>',
    ];
    for (const source of sources) {
      const out = dom(source);
      expect(out.querySelectorAll('a[href]'), source).toHaveLength(0);
      expect(out.querySelectorAll('[src], [style], script'), source).toHaveLength(0);
    }
  });

  it('loads no image: a remote image becomes a link to it, any other one its text', () => {
    const out = dom('![diagram](https://evil.example/pixel.png) ![local](/x.png) ![inline](data:image/png;base64,AAAA)');
    expect(out.querySelectorAll('img')).toHaveLength(0);
    expect([...out.querySelectorAll('a')].map((a) => [a.getAttribute('href'), a.textContent])).toEqual([
      ['https://evil.example/pixel.png', 'Image: diagram'],
    ]);
    expect(out.textContent).toContain('Image: local');
    expect(out.textContent).toContain('Image: inline');
    expect(out.innerHTML).not.toContain('data:');
  });

  it('shows bidi controls as visible escapes, so they cannot reorder the text after them', () => {
    const out = dom('admin\u202Egnp.exe\u202C and \u2066isolated\u2069');
    expect(out.textContent?.trim()).toBe('admin[U+202E]gnp.exe[U+202C] and [U+2066]isolated[U+2069]');
    expect(out.textContent).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/);
  });

  it('task list boxes become text and no form control survives', () => {
    const out = dom(
      '- [x] done\n- [ ] open\n\n<input type="text" value="x"><input type="image" src="https://evil.example/"><textarea>t</textarea>',
    );
    expect(out.querySelectorAll('input, textarea, select, button')).toHaveLength(0);
    expect([...out.querySelectorAll('li')].map((li) => li.textContent)).toEqual(['☑ done', '☐ open']);
  });
});
