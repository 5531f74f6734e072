// The playground's scripted cases (web/bench_cases.c) timed in wasm, the
// same program bench/bench_web.c times natively: in node (V8) and, where
// Debian's chromium is present, in the page itself (headless, through
// playwright-core). 200 frames per case, median of 9 runs, microseconds
// per frame (median and minimum: the clock is wall time, so other load on
// the machine shows in the median), after one warm-up run; written to bench_web_wasm.csv in the working directory.
//   node tests/js/bench_wasm.mjs [BUILD_DIR]      (default build/web)
import { readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const buildDir = path.resolve(process.argv[2] ?? path.join(root, 'build/web'));
const FRAMES = 200, RUNS = 9;

// Runs in node and, serialised, in the page: `x` is the module's exports.
function runCases(x, tailText, frames, runs) {
    const bytes = new TextEncoder().encode(tailText);
    new Uint8Array(x.memory.buffer, x.ikw_text_buffer(), bytes.length).set(bytes);
    if (x.ikw_chain_load(bytes.length) !== 0 || x.ikw_body_init(1.8) !== 0) throw new Error('setup failed');
    const name = (c) => {
        const b = new Uint8Array(x.memory.buffer, x.ikw_bench_name(c));
        return new TextDecoder().decode(b.subarray(0, b.indexOf(0)));
    };
    const rows = [];
    for (let c = 0; name(c) !== ''; ++c) {
        const samples = [];
        let check = x.ikw_bench_case(c, frames); // warm-up: lets the engine's optimising tier take over
        for (let r = 0; r < runs; ++r) {
            const t0 = performance.now();
            check = x.ikw_bench_case(c, frames);
            samples.push(((performance.now() - t0) * 1000) / frames);
        }
        samples.sort((a, b) => a - b);
        rows.push({ name: name(c), us: samples[runs >> 1], min: samples[0], check });
    }
    return rows;
}

const tailText = await readFile(path.join(root, 'examples/tail.chain'), 'utf8');
const wasm = await readFile(path.join(buildDir, 'ikit.wasm'));
// WASI answered as the page does (web/ikit.js): ENOSYS, and EBADF (no preopened directories) to the reactor's _initialize.
const wasiStub = () => new Proxy({}, { get: (_, name) => () => (name === 'fd_prestat_get' ? 8 : 52) });
const { instance } = await WebAssembly.instantiate(wasm, { wasi_snapshot_preview1: wasiStub() });
instance.exports._initialize?.();
const results = { node: runCases(instance.exports, tailText, FRAMES, RUNS) };

let chromiumPath = process.env.CHROMIUM ?? '/usr/bin/chromium';
if (existsSync(chromiumPath)) {
    const { chromium } = await import('playwright-core');
    const { serve } = await import(path.join(root, 'web/serve.mjs'));
    const server = await serve(buildDir, 0);
    const browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox'] });
    try {
        const page = await browser.newPage();
        await page.goto(`http://127.0.0.1:${server.address().port}/index.html#tab=planar`);
        await page.waitForSelector('body[data-ready]');
        results.chromium = await page.evaluate(async ({ src, text, frames, runs }) => {
            const { instance } = await WebAssembly.instantiateStreaming(fetch('./ikit.wasm'),
                { wasi_snapshot_preview1: new Proxy({}, { get: (_, name) => () => (name === 'fd_prestat_get' ? 8 : 52) }) });
            instance.exports._initialize?.();
            // eslint-disable-next-line no-new-func
            return new Function(`return (${src})`)()(instance.exports, text, frames, runs);
        }, { src: runCases.toString(), text: tailText, frames: FRAMES, runs: RUNS });
    } finally {
        await browser.close();
        server.close();
    }
}

let csv = 'engine,case,us_per_frame_median,us_per_frame_min,final_error\n';
for (const [engine, rows] of Object.entries(results)) {
    console.log(`playground cases, wasm in ${engine}, ${FRAMES} frames, median of ${RUNS} runs`);
    for (const r of rows) {
        console.log(`  ${r.name.padEnd(28)} ${r.us.toFixed(2).padStart(9)} us/frame (min ${r.min.toFixed(2).padStart(8)})  (final error ${r.check.toExponential(2)})`);
        csv += `${engine},${r.name},${r.us.toFixed(3)},${r.min.toFixed(3)},${r.check.toExponential(3)}\n`;
    }
}
await writeFile('bench_web_wasm.csv', csv);
