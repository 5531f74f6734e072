// main.js: the playground page. Takes ikit.wasm (compiled while the modules load, see
// index.html) and the default tail chain, starts the views (each when first shown; the
// other tabs' code is fetched then), switches between them with the tabs (the active tab
// is part of the URL state), and runs the active view once per frame.
import { Ikit } from './ikit.js';
import { TailView } from './tail_view.js';
import * as state from './state.js';
import { show, message, RunningMedian } from './readout.js';

const TABS = ['tail', 'planar', 'body', 'robot', 'compare'];
// The views after the tail's, loaded when their tab is first shown (not before the page is interactive).
const LATER = {
    planar: async (ik) => new (await import('./planar_view.js')).PlanarView(ik),
    body: async (ik) => new (await import('./body_view.js')).BodyView(ik),
    robot: async (ik) => new (await import('./robot_view.js')).RobotView(ik),
    compare: async (ik) => new (await import('./compare_view.js')).CompareView(ik),
};

async function start() {
    performance.mark('ikit-main');
    // The module was compiled and the chain fetched while the page's JavaScript loaded (index.html).
    const early = window.ikitEarly;
    const [ik, response] = await Promise.all([Ikit.load(early.wasm), early.chain]);
    if (!response.ok) throw new Error(`cannot load tail.chain: HTTP ${response.status}`);
    const tailText = await response.text();
    performance.mark('ikit-wasm');
    // Each view when its tab is first shown, so a WebGL context is only made for a view someone
    // looks at (and the page is interactive sooner); the tail's also with the side-by-side view
    // (it loads the chain that view solves).
    const views = {}, pending = {};
    let active = null;
    const tail = () => {
        if (!views.tail) {
            views.tail = new TailView(ik, tailText);
            performance.mark('ikit-tail-view');
        }
        return views.tail;
    };
    const view = (tab) => {
        pending[tab] ??= LATER[tab](ik).then((v) => {
            views[tab] = v;
            v.active = tab === active;
            return v;
        }).catch((err) => message('page-message', `The ${tab} view could not start: ${err.message}`));
        return pending[tab];
    };
    // Shows a tab; resolves to its view once that is loaded.
    const select = (tab) => {
        active = TABS.includes(tab) ? tab : 'tail';
        for (const t of TABS) document.getElementById(`${t}-section`).hidden = t !== active;
        if (active === 'tail' || active === 'compare') tail();
        for (const t of TABS) {
            document.getElementById(`tab-${t}`).classList.toggle('active', t === active);
            if (views[t]) views[t].active = t === active;
        }
        state.set('tab', active);
        return active === 'tail' ? Promise.resolve(views.tail) : view(active);
    };
    for (const t of TABS) document.getElementById(`tab-${t}`).addEventListener('click', () => select(t));
    select(state.getString('tab', 'tail'));

    // A file dropped anywhere on the page goes to the view that reads it.
    window.addEventListener('dragover', (e) => e.preventDefault());
    window.addEventListener('drop', async (e) => {
        e.preventDefault();
        const file = e.dataTransfer.files[0];
        if (!file) return;
        message('page-message', '');
        const tab = /\.chain$|\.txt$/i.test(file.name) ? 'tail' : /\.(glb|gltf|bvh)$/i.test(file.name) ? 'body'
            : /\.(urdf|xml)$/i.test(file.name) ? 'robot' : null;
        if (tab) (await select(tab))?.loadFile(file);
        else message('page-message', `${file.name}: the playground reads .chain files (tail tab), .glb / .gltf characters and .bvh motions (humanoid tab), .urdf robots (robot arm tab)`);
    });

    // The page's own work per frame (solve, scene update, draw calls; 60 frames/s needs < 16.7 ms)
    // and the intervals between frames (requestAnimationFrame to requestAnimationFrame) are logged;
    // an 'ikit-frame-log' event on the document writes the log since the last one into #frame-ms
    // (for the browser tests: the frames of a scripted drag) and starts it afresh.
    let last = performance.now(), first = true;
    const frameTime = new RunningMedian(61), log = { intervals: [], works: [] };
    document.addEventListener('ikit-frame-log', () => {
        show('frame-ms', document.getElementById('frame-ms').textContent,
            { intervals: log.intervals.map((x) => x.toFixed(2)).join(' '), works: log.works.map((x) => x.toFixed(3)).join(' ') });
        log.intervals.length = 0;
        log.works.length = 0;
    });
    const tick = (now) => {
        requestAnimationFrame(tick);
        const dt = Math.min(0.1, (now - last) / 1000), v = views[active];
        if (!v) return; // its code is still loading
        const t0 = performance.now();
        let drawn = true; // a view returns false from frame() while it has nothing to draw (the robot before its URDF)
        try {
            drawn = v.frame(dt) !== false;
        } catch (err) {
            message('page-message', `${active}: ${err.message}`);
        }
        const work = performance.now() - t0, ms = frameTime.add(work);
        if (log.works.length < 3600) {
            if (!first) log.intervals.push(now - last);
            log.works.push(work);
        }
        last = now;
        show('frame-ms', `${ms.toFixed(2)} ms/frame`, { value: ms });
        if (first && drawn) {
            first = false;
            // Interactive: the opened tab's first frame solved and drawn (its draw calls issued),
            // its drag handlers live; performance.now() counts from the navigation's start.
            const at = performance.now();
            performance.mark('ikit-interactive');
            show('status', `interactive in ${at.toFixed(0)} ms${crossOriginIsolated ? '' : ' (timer coarse: not cross-origin isolated)'}`,
                { ms: at.toFixed(1), steps: JSON.stringify(performance.getEntriesByType('mark').filter((m) => m.name.startsWith('ikit-'))
                    .map((m) => [m.name.slice(5), +m.startTime.toFixed(1)])) });
            document.body.dataset.ready = 'true';
        }
    };
    requestAnimationFrame(tick);
}

start().catch((err) => {
    message('page-message', `The playground could not start: ${err.message}`);
    document.body.dataset.ready = 'failed';
});
