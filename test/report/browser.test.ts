/**
 * The HTML report in a real headless browser (Debian's chromium via playwright-core): it renders
 * from a file:// URL with no server, the controller diagram is visible, clicking a core line
 * highlights it in the spec. Skips when /usr/bin/chromium is absent.
 */
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderReport } from '../../src/report/html.js';
import { buildReportInput } from '../../src/report/build.js';

const CHROMIUM = '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
const SHOTS = process.env.TSLC_SCREENSHOT_DIR ?? join(tmpdir(), 'tslc-report-shots');

type Context = import('playwright-core').BrowserContext;
let browser: Context | undefined;
let dir = '';

// Runs in the page; typed without the DOM lib, which the project's tsconfig does not load.
const backgroundOf = (el: unknown): string =>
  (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }).getComputedStyle(el).backgroundColor;

describe.skipIf(!haveChromium)('HTML report in headless chromium', () => {
  beforeAll(async () => {
    const { chromium } = await import('playwright-core');
    dir = mkdtempSync(join(tmpdir(), 'tslc-report-'));
    mkdirSync(SHOTS, { recursive: true });
    // A fresh profile per run: launchPersistentContext is playwright's way to pass --user-data-dir.
    browser = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'tslc-chromium-')), {
      executablePath: CHROMIUM,
      viewport: { width: 1400, height: 1000 },
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('realizable spec: verdict and a visible diagram with every state', async () => {
    const input = await buildReportInput(['specs/conflicts/adventure.tsl'], { timeoutMs: 30_000 });
    expect(input.verdict).toBe('realizable');
    const file = join(dir, 'realizable.html');
    writeFileSync(file, renderReport(input));
    const page = await browser!.newPage();
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(pathToFileURL(file).href);
    expect(await page.textContent('#verdict')).toBe('realizable');
    const svg = page.locator('svg.diagram');
    expect(await svg.isVisible()).toBe(true);
    const box = await svg.boundingBox();
    expect(box!.width).toBeGreaterThan(200);
    expect(await page.locator('svg.diagram g.state').count()).toBe(input.diagram!.stateCount);
    expect(await page.locator('svg.diagram g.edge').count()).toBe(input.diagram!.edges.length);
    // Nothing but the file itself is loaded.
    expect(requests.filter((u) => !u.startsWith('file:'))).toEqual([]);
    const png = await page.screenshot({ path: join(SHOTS, 'realizable.png'), fullPage: false });
    expect(png.length).toBeGreaterThan(10_000);
    await page.close();
  }, 60_000);

  it('unrealizable composition: the core is listed and clicking it highlights the spec line', async () => {
    const input = await buildReportInput(['specs/conflicts/adventure.tsl', 'specs/conflicts/strict.tsl'], { timeoutMs: 30_000 });
    expect(input.verdict).toBe('unrealizable');
    const file = join(dir, 'unrealizable.html');
    writeFileSync(file, renderReport(input));
    const page = await browser!.newPage();
    await page.goto(pathToFileURL(file).href);
    expect(await page.textContent('#verdict')).toBe('unrealizable');
    const links = page.locator('a.core-link');
    expect(await links.count()).toBe(input.explanation!.core.members.length);
    expect(await page.locator('pre.story').isVisible()).toBe(true);
    const strictLink = page.locator('a.core-link', { hasText: 'strict.tsl:3' });
    const target = await strictLink.getAttribute('data-target');
    const line = page.locator(`[id="${target}"]`);
    expect(await line.getAttribute('class')).toBe('core');
    const before = await line.evaluate(backgroundOf);
    await strictLink.click();
    expect(await line.getAttribute('class')).toContain('highlight');
    const after = await line.evaluate(backgroundOf);
    expect(after).not.toBe(before);
    expect(await line.textContent()).toContain('storyPassage <- toCave');
    // Clicking another core line moves the highlight.
    await page.locator('a.core-link', { hasText: 'adventure.tsl:23' }).click();
    expect(await line.getAttribute('class')).not.toContain('highlight');
    expect(await page.locator('li.highlight').textContent()).toContain('F inCave(s)');
    await strictLink.click();
    await page.screenshot({ path: join(SHOTS, 'unrealizable.png'), fullPage: true });
    await page.close();
  }, 60_000);

  it('spec text cannot inject markup or script', async () => {
    const hostile = '<script>window.pwned=1</script><img src=x onerror="window.pwned=2">';
    const html = renderReport({ title: hostile, files: [{ path: 'x"><b>.tsl', text: `guarantee { ${hostile} }` }], verdict: 'unknown', note: hostile });
    const file = join(dir, 'hostile.html');
    writeFileSync(file, html);
    const page = await browser!.newPage();
    await page.goto(pathToFileURL(file).href);
    expect(await page.evaluate(() => (globalThis as unknown as { pwned?: number }).pwned)).toBeUndefined();
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.textContent('ol.spec li')).toContain('<script>');
    await page.close();
  }, 30_000);
});
