// Serves the built playground (build/web) on localhost only.
//   node web/serve.mjs [DIR] [PORT]     default build/web and 8077; PORT 0 picks a free one
// The page is sent cross-origin isolated (COOP + COEP), which gives
// performance.now() its fine (5 microsecond) resolution for the solve timings.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

const types = {
    '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
    '.css': 'text/css; charset=utf-8', '.wasm': 'application/wasm', '.chain': 'text/plain; charset=utf-8',
    '.png': 'image/png', '.json': 'application/json',
};

export function serve(dir, port, host = '127.0.0.1') {
    const root = path.resolve(dir);
    const server = createServer(async (req, res) => {
        const url = new URL(req.url, 'http://localhost');
        let file = path.normalize(path.join(root, decodeURIComponent(url.pathname)));
        if (!file.startsWith(root)) { res.writeHead(403).end('forbidden'); return; }
        if (url.pathname.endsWith('/')) file = path.join(file, 'index.html');
        try {
            const body = await readFile(file);
            res.writeHead(200, {
                'Content-Type': types[path.extname(file)] ?? 'application/octet-stream',
                'Cross-Origin-Opener-Policy': 'same-origin',
                'Cross-Origin-Embedder-Policy': 'require-corp',
                'Cache-Control': 'no-cache',
            });
            res.end(body);
        } catch {
            res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
        }
    });
    return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => resolve(server));
    });
}

if (import.meta.url === `file://${process.argv[1]}`) {
    const dir = process.argv[2] ?? 'build/web';
    const port = Number(process.argv[3] ?? 8077);
    const server = await serve(dir, port);
    console.log(`ikit playground: http://localhost:${server.address().port}/  (Ctrl-C to stop)`);
}
