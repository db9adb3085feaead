// Draws the app's PNG icons (web/icon-192.png, web/icon-512.png) from
// web/icon.svg with headless Chromium. Run it after changing the SVG:
//   node scripts/icons.mjs
// The PNGs are committed; the build only copies them (scripts/build/offline.mjs).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const web = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'web');
const svg = fs.readFileSync(path.join(web, 'icon.svg'), 'utf8');
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu'],
});
try {
  for (const size of [192, 512]) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    await page.setContent(`<html><body style="margin:0;background:transparent">${svg.replace('<svg ', `<svg width="${size}" height="${size}" `)}</body></html>`);
    await page.screenshot({ path: path.join(web, `icon-${size}.png`), omitBackground: true });
    await page.close();
  }
} finally {
  await browser.close();
}
