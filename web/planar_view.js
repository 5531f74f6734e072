// planar_view.js: seed 003's 2D skeleton editor. A planar chain of bones
// (lengths typed on the page) is posed by dragging its joints: in IK mode
// the dragged joint is pulled to the pointer by turning the bones before it
// (CCD, FABRIK or seed 003's gradient descent, ik_chain2d in wasm); in FK
// mode the bone ending at the dragged joint turns to point at the pointer
// (alpha_i = atan2(pointer - p_i) - beta_{i-1}) and the bones after it
// follow. Dragging the base moves the whole chain.
import { PLANAR_METHODS } from './ikit.js';
import * as state from './state.js';
import { show, message, RunningMedian } from './readout.js';

const FK = -1;
const PICK_PX = 14;

// "1 1 0.8" -> [1, 1, 0.8], or an error message.
export function parseLengths(text, maxBones) {
    const words = text.trim().split(/[\s,]+/).filter(Boolean);
    if (words.length === 0) return { error: 'give at least one bone length' };
    if (words.length > maxBones) return { error: `at most ${maxBones} bones` };
    const lengths = [];
    for (const [i, w] of words.entries()) {
        const v = Number(w);
        if (!Number.isFinite(v)) return { error: `bone ${i + 1}: "${w}" is not a number` };
        if (v <= 0) return { error: `bone ${i + 1}: the length must be positive (got ${w})` };
        lengths.push(v);
    }
    return { lengths };
}

export class PlanarView {
    constructor(ik) {
        this.ik = ik;
        this.canvas = document.getElementById('planar-canvas');
        this.ctx = this.canvas.getContext('2d');
        this.method = document.getElementById('planar-method');
        this.method.add(new Option('FK: turn the bone', String(FK)));
        PLANAR_METHODS.forEach((name, i) => this.method.add(new Option(`IK: ${name}`, String(i))));
        this.method.value = String(state.getNumber('pm', 1, FK, PLANAR_METHODS.length - 1));
        this.method.addEventListener('change', () => state.set('pm', this.method.value));
        this.lengthsInput = document.getElementById('planar-lengths');
        this.lengthsInput.value = state.getString('pl', '1 1 1 0.8 0.6 0.4');
        document.getElementById('planar-apply').addEventListener('click', () => this.setChain(this.lengthsInput.value, null));
        this.timing = new RunningMedian();
        this.base = state.getNumbers('pb', [-2.2, 0], 2);
        this.target = null;
        this.dragJoint = -1;
        if (!this.setChain(this.lengthsInput.value, state.getNumbers('pa', null))) this.setChain('1 1 1 0.8 0.6 0.4', null);
        this.canvas.addEventListener('pointerdown', (e) => this.pointerDown(e));
        this.canvas.addEventListener('pointermove', (e) => this.pointerMove(e));
        this.canvas.addEventListener('pointerup', () => { this.dragJoint = -1; this.target = null; });
    }

    setChain(text, angles) {
        const parsed = parseLengths(text, this.ik.x.ikw_planar_max_bones());
        if (parsed.error) {
            message('planar-message', `The bone lengths were not used: ${parsed.error}`);
            return false;
        }
        message('planar-message', '');
        this.lengths = parsed.lengths;
        this.count = this.lengths.length;
        this.angles = angles && angles.length === this.count ? angles : this.lengths.map((_, i) => (i === 0 ? 0.3 : -0.15));
        this.ik.planarSet(this.lengths, this.angles);
        this.xy = this.ik.planarFK(this.count, this.base);
        state.set('pl', this.lengths.join(' '));
        state.set('pa', this.angles);
        return true;
    }

    // Model units to canvas pixels: 70 px per unit, origin at the canvas centre, y up.
    scale() { return 70; }
    toCanvas(x, y) { return [this.canvas.width / 2 + x * this.scale(), this.canvas.height / 2 - y * this.scale()]; }
    fromEvent(e) {
        const r = this.canvas.getBoundingClientRect();
        const cx = ((e.clientX - r.left) / r.width) * this.canvas.width, cy = ((e.clientY - r.top) / r.height) * this.canvas.height;
        return [(cx - this.canvas.width / 2) / this.scale(), (this.canvas.height / 2 - cy) / this.scale()];
    }

    pointerDown(e) {
        const r = this.canvas.getBoundingClientRect(), k = this.canvas.width / r.width;
        const [mx, my] = [(e.clientX - r.left) * k, (e.clientY - r.top) * k];
        let best = -1, bestD = PICK_PX * k;
        for (let j = 0; j <= this.count; ++j) {
            const [x, y] = this.toCanvas(this.xy[2 * j], this.xy[2 * j + 1]);
            const d = Math.hypot(x - mx, y - my);
            if (d < bestD) { best = j; bestD = d; }
        }
        this.dragJoint = best;
        if (best >= 0) this.canvas.setPointerCapture(e.pointerId);
    }

    pointerMove(e) {
        if (this.dragJoint < 0) return;
        const p = this.fromEvent(e);
        const j = this.dragJoint, method = Number(this.method.value);
        if (j === 0) {
            this.base = p;
            state.set('pb', p);
            this.xy = this.ik.planarFK(this.count, this.base);
            return;
        }
        this.target = p;
        if (method === FK) {
            const [x, y] = [this.xy[2 * (j - 1)], this.xy[2 * j - 1]];
            let before = 0;
            for (let i = 0; i < j - 1; ++i) before += this.angles[i];
            this.angles[j - 1] = Math.atan2(p[1] - y, p[0] - x) - before;
            this.ik.planarSet(this.lengths, this.angles);
            this.xy = this.ik.planarFK(this.count, this.base);
            this.showSolve(null, j);
        } else {
            const r = this.ik.planarSolve(this.count, j, method, this.base, p, { maxIterations: method === 2 ? 500 : 50 });
            this.xy = r.xy;
            this.angles = this.ik.planarAngles(this.count);
            this.showSolve(r, j);
        }
        state.set('pa', this.angles);
    }

    showSolve(r, joint) {
        const [jx, jy] = [this.xy[2 * joint], this.xy[2 * joint + 1]];
        // FK does not aim at the pointer: no error to show.
        show('planar-error', r ? r.error.toExponential(2) : '-', { value: r ? r.error : '' });
        show('planar-iterations', r ? String(r.iterations) : '-', { value: r ? r.iterations : 0 });
        show('planar-us', r ? this.timing.add(r.us).toFixed(1) : '-', { value: r ? r.us : 0 });
        show('planar-joint', `joint ${joint} at ${jx.toFixed(4)} ${jy.toFixed(4)}`, { index: joint, x: jx, y: jy });
    }

    frame() {
        const { ctx, canvas } = this;
        // One canvas pixel per CSS pixel, so pointer positions map directly.
        if (canvas.width !== canvas.clientWidth || canvas.height !== canvas.clientHeight) {
            canvas.width = Math.max(1, canvas.clientWidth);
            canvas.height = Math.max(1, canvas.clientHeight);
        }
        ctx.fillStyle = '#1d2230';
        ctx.fillRect(0, 0, canvas.width, canvas.height);
        ctx.strokeStyle = '#323a4a';
        ctx.lineWidth = 1;
        for (let u = -10; u <= 10; ++u) {
            const [x] = this.toCanvas(u, 0), [, y] = this.toCanvas(0, u);
            ctx.beginPath(); ctx.moveTo(x, 0); ctx.lineTo(x, canvas.height); ctx.stroke();
            ctx.beginPath(); ctx.moveTo(0, y); ctx.lineTo(canvas.width, y); ctx.stroke();
        }
        ctx.strokeStyle = '#ff8c1a';
        ctx.lineWidth = 6;
        ctx.lineCap = 'round';
        ctx.beginPath();
        for (let j = 0; j <= this.count; ++j) ctx[j ? 'lineTo' : 'moveTo'](...this.toCanvas(this.xy[2 * j], this.xy[2 * j + 1]));
        ctx.stroke();
        for (let j = 0; j <= this.count; ++j) {
            ctx.fillStyle = j === this.dragJoint ? '#ffffff' : j === 0 ? '#8899aa' : '#ffd080';
            ctx.beginPath();
            ctx.arc(...this.toCanvas(this.xy[2 * j], this.xy[2 * j + 1]), 7, 0, 2 * Math.PI);
            ctx.fill();
        }
        if (this.target) {
            const [x, y] = this.toCanvas(...this.target);
            ctx.strokeStyle = '#3ad17a';
            ctx.lineWidth = 2;
            ctx.beginPath(); ctx.moveTo(x - 9, y); ctx.lineTo(x + 9, y); ctx.moveTo(x, y - 9); ctx.lineTo(x, y + 9); ctx.stroke();
        }
        // Page coordinates of every joint, for tests and tools.
        const r = canvas.getBoundingClientRect(), k = r.width / canvas.width;
        const page = [];
        for (let j = 0; j <= this.count; ++j) {
            const [x, y] = this.toCanvas(this.xy[2 * j], this.xy[2 * j + 1]);
            page.push([r.left + x * k + window.scrollX, r.top + y * k + window.scrollY]);
        }
        canvas.dataset.joints = JSON.stringify(page);
    }
}
