// main.js: the playground page. Loads ikit.wasm and the default tail chain,
// starts the views (each when first shown), switches between them with the tabs (the active
// tab is part of the URL state), and runs the active view once per frame.
import { Ikit } from './ikit.js';
import { TailView } from './tail_view.js';
import { PlanarView } from './planar_view.js';
import { BodyView } from './body_view.js';
import { CompareView } from './compare_view.js';
import { RobotView } from './robot_view.js';
import * as state from './state.js';
import { show, message, RunningMedian } from './readout.js';

const TABS = ['tail', 'planar', 'body', 'robot', 'compare'];

async function start() {
    // The module and the default chain load side by side (index.html preloads both).
    const [ik, response] = await Promise.all([Ikit.load(), fetch('./tail.chain')]);
    if (!response.ok) throw new Error(`cannot load tail.chain: HTTP ${response.status}`);
    // The tail view always (it loads the chain the side-by-side view uses);
    // the others when their tab is first shown, so a WebGL context is only
    // made for a view someone looks at (and the page is interactive sooner).
    const tailText = await response.text();
    const makers = { planar: () => new PlanarView(ik), body: () => new BodyView(ik), robot: () => new RobotView(ik), compare: () => new CompareView(ik) };
    const views = {};
    let active = null;
    const select = (tab) => {
        active = TABS.includes(tab) ? tab : 'tail';
        for (const t of TABS) document.getElementById(`${t}-section`).hidden = t !== active;
        views.tail ??= new TailView(ik, tailText);
        views[active] ??= makers[active]();
        for (const t of TABS) {
            document.getElementById(`tab-${t}`).classList.toggle('active', t === active);
            if (views[t]) views[t].active = t === active;
        }
        state.set('tab', active);
    };
    for (const t of TABS) document.getElementById(`tab-${t}`).addEventListener('click', () => select(t));
    select(state.getString('tab', 'tail'));

    // A file dropped anywhere on the page goes to the view that reads it.
    window.addEventListener('dragover', (e) => e.preventDefault());
    window.addEventListener('drop', (e) => {
        e.preventDefault();
        const file = e.dataTransfer.files[0];
        if (!file) return;
        message('page-message', '');
        if (/\.chain$|\.txt$/i.test(file.name)) {
            select('tail');
            views.tail.loadFile(file);
        } else if (/\.(glb|gltf|bvh)$/i.test(file.name)) {
            select('body');
            views.body.loadFile(file);
        } else if (/\.(urdf|xml)$/i.test(file.name)) {
            select('robot');
            views.robot.loadFile(file);
        } else {
            message('page-message', `${file.name}: the playground reads .chain files (tail tab), .glb / .gltf characters and .bvh motions (humanoid tab), .urdf robots (robot arm tab)`);
        }
    });

    let last = performance.now(), first = true;
    const frameTime = new RunningMedian(61);
    const tick = (now) => {
        const dt = Math.min(0.1, (now - last) / 1000);
        last = now;
        try {
            const t0 = performance.now();
            views[active].frame(dt);
            // The page's own work per frame (solve, scene update, draw calls); 60 frames/s needs < 16.7 ms.
            const ms = frameTime.add(performance.now() - t0);
            show('frame-ms', `${ms.toFixed(2)} ms/frame`, { value: ms });
        } catch (err) {
            message('page-message', `${active}: ${err.message}`);
        }
        if (first) {
            first = false;
            // Time to interactive: navigation start to the first solved and drawn frame.
            const ms = performance.now();
            show('status', `ready in ${ms.toFixed(0)} ms${crossOriginIsolated ? '' : ' (timer coarse: not cross-origin isolated)'}`,
                { ms: ms.toFixed(1) });
            document.body.dataset.ready = 'true';
        }
        requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
}

start().catch((err) => {
    message('page-message', `The playground could not start: ${err.message}`);
    document.body.dataset.ready = 'failed';
});
