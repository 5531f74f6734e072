// What the playground's test (playground.mjs) and its benchmark
// (bench_playground.mjs) both do to the page in headless Chromium.
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

// Debian's chromium: $CHROMIUM, else the first of chromium and
// chromium-browser on PATH; null when there is none.
export function findChromium() {
    if (process.env.CHROMIUM) return existsSync(process.env.CHROMIUM) ? process.env.CHROMIUM : null;
    for (const name of ['chromium', 'chromium-browser']) {
        try {
            return execFileSync('sh', ['-c', `command -v ${name}`]).toString().trim() || null;
        } catch { /* not on PATH */ }
    }
    return null;
}

// playwright-core's launch options: SwiftShader through ANGLE (the test's
// screenshots), or Chromium's own choice of GL.
export function launchOptions({ softwareGL }) {
    const args = softwareGL ? ['--enable-unsafe-swiftshader', '--use-angle=swiftshader', '--no-sandbox'] : ['--no-sandbox'];
    return { executablePath: findChromium(), args };
}

// Resolves after `count` animation frames of the page.
export const frames = (page, count) => page.evaluate((n) => new Promise((done) => {
    const step = () => (--n <= 0 ? done() : requestAnimationFrame(step));
    requestAnimationFrame(step);
}), count);

// One load of `url` in a fresh browser context (no HTTP or code cache):
// the page's own time to interactive (#status data-ms, from the navigation's
// start) and the steps on the way. onError gets the page's uncaught errors.
export async function coldLoad(browser, url, onError = () => {}) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
        const page = await context.newPage();
        page.on('pageerror', (e) => onError(e.message));
        await page.goto(url);
        await page.waitForSelector('body[data-ready]', { timeout: 30000 });
        return await page.$eval('#status', (el) => ({ ms: Number(el.dataset.ms), steps: JSON.parse(el.dataset.steps ?? '[]') }));
    } finally {
        await context.close();
    }
}

// The humanoid's second hand target dragged from inside the page at `url`
// (#tab=body): a pointer event each animation frame for `count` frames, so
// the frames are the page's and the GL's, not the test's round trips. The
// sorted intervals between frames (ms) and how far the hand's goal moved.
export async function dragHandFrames(browser, url, count) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    try {
        await page.goto(url);
        await page.waitForSelector('body[data-ready]', { timeout: 30000 });
        await frames(page, 10);
        const from = (await page.$eval('#body-ends', (el) => JSON.parse(el.dataset.targets)))[1];
        const before = (await page.$eval('#body-ends', (el) => JSON.parse(el.dataset.goals)))[1];
        const intervals = await page.evaluate(async ({ at, n }) => {
            const canvas = document.elementFromPoint(at[0], at[1]), stamps = [];
            const send = (type, k) => canvas.dispatchEvent(new PointerEvent(type, {
                clientX: at[0] - 0.5 * k, clientY: at[1] - 0.8 * k, bubbles: true, pointerId: 1, isPrimary: true,
                button: 0, buttons: type === 'pointerup' ? 0 : 1 }));
            send('pointerdown', 0);
            await new Promise((done) => {
                const step = (t) => {
                    stamps.push(t);
                    send('pointermove', stamps.length);
                    if (stamps.length < n) requestAnimationFrame(step); else done();
                };
                requestAnimationFrame(step);
            });
            send('pointerup', stamps.length);
            return stamps.slice(1).map((t, k) => t - stamps[k]).sort((a, b) => a - b);
        }, { at: from, n: count });
        const after = (await page.$eval('#body-ends', (el) => JSON.parse(el.dataset.goals)))[1];
        return { intervals, moved: Math.hypot(...after.map((v, i) => v - before[i])) };
    } finally {
        await page.close();
    }
}
