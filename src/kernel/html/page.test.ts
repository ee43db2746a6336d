import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { contrastRatio, logoProblem, SERVICE_LOOK } from './look.js';
import { html } from './markup.js';
import { renderPage } from './page.js';

const LOGO = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4"><rect width="4" height="4"/></svg>';

describe('the HTML page kit', () => {
  it('escapes every value but nested markup', () => {
    const name = `<script>alert("x")</script> & 'co'`;
    const paragraph = html`<p title="${name}">${name}</p>`;
    expect(paragraph.text).toBe(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;co&#39;">' +
        '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;co&#39;</p>',
    );
    expect(html`${[paragraph, 'a<b']}`.text).toBe(`${paragraph.text}a&lt;b`);
    expect(html`${undefined}${false}${null}${0}`.text).toBe('0');
  });

  it('allows exactly its one style by hash, images only as data:, no script; the same page, the same bytes', () => {
    const input = { lang: 'es', title: 'T', look: { ...SERVICE_LOOK, logoSvg: LOGO }, main: html`<p>x</p>` };
    const page = renderPage(input);
    const style = /<style>([^<]*)<\/style>/.exec(page.body)![1]!;
    const hash = createHash('sha256').update(style).digest('base64');
    const policy = page.headers['Content-Security-Policy']!;
    expect(policy).toBe(
      `default-src 'none'; style-src 'sha256-${hash}'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    );
    expect(page.body).toContain('<html lang="es">');
    expect(page.body).toContain('src="data:image/svg+xml;base64,');
    expect(page.body).not.toContain('<script');
    expect(renderPage(input)).toEqual(page);
    const framed = renderPage({ ...input, postsForm: true, framable: true });
    expect(framed.headers['Content-Security-Policy']).toContain("form-action 'self'");
    expect(framed.headers['Content-Security-Policy']).not.toContain('frame-ancestors');
    expect(framed.headers['X-Frame-Options']).toBeUndefined();
  });

  it('puts only a #rrggbb colour into the style', () => {
    const page = renderPage({ lang: 'en', title: 'T', look: { name: 'N', colour: 'red}body{x:y' }, main: html`` });
    expect(page.body).toContain(`--brand:${SERVICE_LOOK.colour}`);
    expect(page.body).not.toContain('x:y');
  });

  it('judges colours by WCAG contrast and logos by what they may hold', () => {
    expect(contrastRatio('#ffffff', '#000000')).toBeCloseTo(21, 5);
    expect(contrastRatio('#777777', '#ffffff')).toBeLessThan(4.5);
    expect(logoProblem(LOGO)).toBeUndefined();
    expect(logoProblem('<svg viewBox="0 0 1 1"></svg>')).toMatch(/xmlns/);
    expect(logoProblem(LOGO.replace(' viewBox="0 0 4 4"', ''))).toMatch(/viewBox/);
    expect(logoProblem(LOGO.replace('<rect', '<script>x</script><rect'))).toMatch(/scripts/);
    expect(logoProblem(LOGO.replace('<rect', '<rect onload="x()"'))).toMatch(/event handlers/);
    expect(logoProblem(LOGO.replace('<rect', '<image href="https://x.example/a.png"/><rect'))).toMatch(/other files/);
  });
});
