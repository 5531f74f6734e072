// The playground's speed as a user meets it, in Debian's headless chromium
// through playwright-core, against the page built in BUILD_DIR:
//  - time to interactive on cold loads (each in a fresh browser context: no
//    HTTP or code cache) of the default link (the tail) and of #tab=body,
//    the page's own figure (its opened tab's first frame solved and drawn,
//    drag handlers live, from the navigation's start); the first load after
//    the browser's start also waits for its GPU process and is shown apart;
//  - the frame times of a humanoid hand dragged from inside the page (a
//    pointer event each animation frame) with Chromium's default GL.
// Medians over the repeats; written to bench_playground.csv in the working
// directory. tests/js/playground.mjs checks the same paths once, untimed.
//   node tests/js/bench_playground.mjs [BUILD_DIR]      (default build/web)
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchOptions, coldLoad, dragHandFrames } from './page_driver.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const buildDir = path.resolve(process.argv[2] ?? path.join(root, 'build/web'));
const DEFAULT_LOADS = 8, BODY_LOADS = 5, DRAG_FRAMES = 120;

const { chromium } = await import('playwright-core');
const { serve } = await import(path.join(root, 'web/serve.mjs'));
const server = await serve(buildDir, 0);
const url = `http://127.0.0.1:${server.address().port}/`;
const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
const rows = [];
try {
    const browser = await chromium.launch(launchOptions({ softwareGL: true }));
    try {
        for (const [hash, count] of [['', DEFAULT_LOADS], ['#tab=body', BODY_LOADS]]) {
            const loads = [];
            for (let i = 0; i < count; ++i) loads.push(await coldLoad(browser, url + hash));
            const name = hash || 'default link (tail)';
            if (!hash) {
                const first = loads.shift();
                console.log(`interactive, first load after the browser's start: ${first.ms.toFixed(0)} ms`);
                rows.push(['first_load_after_start', name, first.ms]);
            }
            const mid = loads.find((l) => l.ms === median(loads.map((m) => m.ms)));
            console.log(`interactive on cold loads of ${name}: median ${mid.ms.toFixed(0)} ms ` +
                `(${loads.map((l) => l.ms.toFixed(0)).join(' ')}); the median's steps: ` +
                mid.steps.map(([n, t]) => `${n} ${t.toFixed(0)}`).join(', '));
            rows.push(['cold_load_median', name, mid.ms]);
        }
    } finally {
        await browser.close();
    }
    const glBrowser = await chromium.launch(launchOptions({ softwareGL: false }));
    try {
        const { intervals } = await dragHandFrames(glBrowser, `${url}#tab=body`, DRAG_FRAMES);
        const at = (p) => intervals[Math.min(intervals.length - 1, Math.floor(p * intervals.length))];
        console.log(`humanoid drag with Chromium's default GL, ${intervals.length} frames: median ${at(0.5).toFixed(1)} ms ` +
            `(${(1000 / at(0.5)).toFixed(1)} frames/s), 95th percentile ${at(0.95).toFixed(1)} ms`);
        rows.push(['drag_frame_median', 'humanoid hand in default GL', at(0.5)]);
        rows.push(['drag_frame_p95', 'humanoid hand in default GL', at(0.95)]);
    } finally {
        await glBrowser.close();
    }
} finally {
    server.close();
}
await writeFile('bench_playground.csv', 'measure,case,ms\n' + rows.map(([m, c, ms]) => `${m},${c},${ms.toFixed(1)}\n`).join(''));
console.log('written: bench_playground.csv');
