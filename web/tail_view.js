// tail_view.js: seed 002's tail. A chain from a chain file (examples/tail.chain
// by default, editable on the page) chases a cube the user drags with the
// mouse or moves with the arrow keys (PageUp / PageDown: nearer / farther).
// Each frame is one solve in wasm, warm-started from the last frame's pose,
// so with springs and gravity the tail keeps settling into comfort after it
// has reached.
import { Scene3D, StickFigure, targetCube, THREE, formatVec } from './scene3d.js';
import { CHAIN_METHODS } from './ikit.js';
import * as state from './state.js';
import { show, message, RunningMedian } from './readout.js';

const SLOT = 0;

export class TailView {
    constructor(ik, defaultText) {
        this.ik = ik;
        this.defaultText = defaultText;
        this.view = new Scene3D(document.getElementById('tail-view'), { center: [0.2, 0.2, -1.4], distance: 5.5, yaw: 1.1, pitch: 0.45 });
        this.view.scene.add(new THREE.GridHelper(8, 16, 0x556070, 0x323a4a).translateY(-1.2));
        this.cube = targetCube(this.view.scene);
        this.view.addDraggable(this.cube, (p) => this.moveCube(p.toArray()));
        this.timing = new RunningMedian();
        this.method = document.getElementById('tail-method');
        CHAIN_METHODS.forEach((name, i) => this.method.add(new Option(name, String(i))));
        this.method.value = String(state.getNumber('tm', 0, 0, CHAIN_METHODS.length - 1));
        this.gravity = document.getElementById('tail-gravity');
        this.gravity.value = String(state.getNumber('tg', 0, 0, 1));
        this.method.addEventListener('change', () => state.set('tm', this.method.value));
        this.gravity.addEventListener('input', () => state.set('tg', this.gravity.value));
        this.text = document.getElementById('tail-text');
        this.text.value = state.getString('chain', defaultText);
        document.getElementById('tail-apply').addEventListener('click', () => this.apply(this.text.value, true));
        document.getElementById('tail-reset').addEventListener('click', () => { this.ik.chainReset(SLOT); });
        document.getElementById('tail-file').addEventListener('change', (e) => e.target.files[0] && this.loadFile(e.target.files[0]));
        if (!this.apply(this.text.value, !state.getNumbers('cube', null, 3))) this.apply(defaultText, true);
        const cube = state.getNumbers('cube', null, 3);
        if (cube) this.moveCube(cube);
        window.addEventListener('keydown', (e) => this.key(e));
    }

    // Load chain text; on failure the message says where and the old chain stays.
    apply(text, resetCube) {
        const error = this.ik.loadChain(text);
        if (error) {
            message('tail-message', `The chain was not loaded: ${error}`);
            return false;
        }
        message('tail-message', '');
        if (this.figure) this.figure.dispose(this.view.scene);
        this.figure = new StickFigure(this.view.scene, this.ik.chainParents());
        this.figure.update(this.ik.chainPositions(SLOT));
        if (resetCube) this.moveCube(this.ik.chainFileTarget());
        state.set('chain', text === this.defaultText ? '' : text);
        document.dispatchEvent(new CustomEvent('chain-loaded'));
        return true;
    }

    async loadFile(file) {
        if (file.size > this.ik.x.ikw_text_capacity()) {
            message('tail-message', `${file.name} was not loaded: a chain file is at most 64 KiB`);
            return;
        }
        this.text.value = await file.text();
        this.apply(this.text.value, true);
    }

    moveCube(p) {
        this.cube.position.set(p[0], p[1], p[2]);
        state.set('cube', p);
    }

    key(e) {
        if (!this.active || e.target instanceof HTMLTextAreaElement || e.target instanceof HTMLInputElement) return;
        const step = e.shiftKey ? 0.2 : 0.05;
        const moves = { ArrowLeft: [-step, 0, 0], ArrowRight: [step, 0, 0], ArrowUp: [0, step, 0], ArrowDown: [0, -step, 0],
            PageUp: [0, 0, -step], PageDown: [0, 0, step] };
        const d = moves[e.key];
        if (!d) return;
        e.preventDefault();
        this.moveCube(this.cube.position.toArray().map((v, i) => v + d[i]));
    }

    frame(dt) {
        this.cube.rotation.x += dt * 0.9;
        this.cube.rotation.y += dt * 1.3;
        const target = this.cube.position.toArray();
        let r;
        try {
            r = this.ik.chainSolve(SLOT, Number(this.method.value), target, { gravity: Number(this.gravity.value) });
        } catch (err) {
            message('tail-message', err.message);
            return;
        }
        this.figure.update(r.positions);
        const n = this.ik.chainJointCount();
        const tip = r.positions.slice(3 * (n - 1), 3 * n);
        this.view.render();
        const [tx, ty] = this.view.toPage(tip), [cx, cy] = this.view.toPage(target);
        show('tail-error', r.error.toExponential(2), { value: r.error });
        show('tail-iterations', String(r.iterations), { value: r.iterations });
        show('tail-us', this.timing.add(r.us).toFixed(0), { value: r.us });
        show('tail-tip', formatVec(tip), { x: tip[0], y: tip[1], z: tip[2], px: tx, py: ty });
        show('tail-cube', formatVec(target), { x: target[0], y: target[1], z: target[2], px: cx, py: cy });
    }
}
