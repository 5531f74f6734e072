// planar_view.js: seed 003's 2D skeleton editor. A planar chain of bones
// (lengths typed on the page) is posed by dragging its joints: in IK mode
// the dragged joint is pulled to the pointer by turning the bones before it
// (CCD, FABRIK or seed 003's gradient descent, ik_planar_chain in wasm); in FK
// mode the bone ending at the dragged joint turns to point at the pointer
// (alpha_i = atan2(pointer - p_i) - beta_{i-1}) and the bones after it
// follow. Dragging the base moves the whole chain. Poses can be keyed at
// times and played back along motion curves (web/planar_keys.c), drawn
// below the chain; the chosen bone's curve shows a handle on each side of
// each key, dragged to set the key's tangent (aligned, or broken with
// Shift), which the clip's CUBICSPLINE channel then plays.
import { PLANAR_METHODS } from './ikit.js';
import * as state from './state.js';
import { show, message, RunningMedian } from './readout.js';

const FK = -1;
const PICK_PX = 14;
const HANDLE_PX = 36; // a tangent handle's reach along the time axis, canvas pixels

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
        const tangentBone = state.getNumber('ptb', 0, 0); // read before setChain fills the menu
        this.lengthsInput = document.getElementById('planar-lengths');
        this.lengthsInput.value = state.getString('pl', '1 1 1 0.8 0.6 0.4');
        document.getElementById('planar-apply').addEventListener('click', () => this.setChain(this.lengthsInput.value, null));
        this.timing = new RunningMedian();
        this.base = state.getNumbers('pb', [-2.2, 0], 2);
        this.target = null;
        this.dragJoint = -1;
        if (!this.setChain(this.lengthsInput.value, state.getFloats('pa', null))) this.setChain('1 1 1 0.8 0.6 0.4', null);
        this.curves = document.getElementById('planar-curves');
        this.time = document.getElementById('planar-time');
        this.playing = false;
        document.getElementById('planar-key').addEventListener('click', () => this.key());
        document.getElementById('planar-clear').addEventListener('click', () => { this.ik.planarKeysClear(); this.keysChanged(); });
        document.getElementById('planar-play').addEventListener('click', () => this.togglePlay());
        this.time.addEventListener('input', () => this.poseAt(Number(this.time.value)));
        this.tangentBone = document.getElementById('planar-tangent-bone');
        this.tangentBone.value = String(Math.min(Math.floor(tangentBone), this.count - 1));
        this.tangentBone.addEventListener('change', () => { state.set('ptb', this.tangentBone.value); this.keysChanged(); });
        document.getElementById('planar-tangents-auto').addEventListener('click', () => { this.ik.planarTangentsAuto(); this.tangentsChanged(); });
        this.curves.addEventListener('pointerdown', (e) => this.handleDown(e));
        this.curves.addEventListener('pointermove', (e) => this.handleMove(e));
        this.curves.addEventListener('pointerup', () => { this.handle = null; });
        this.handle = null;
        // From a link: the keys, then their hand-set tangents, the time; the pose stays the link's ('pa').
        const tangents = state.getFloats('pt', []), time = state.getNumber('ptm', 0, 0);
        this.restoreKeys(state.getFloats('pk', []));
        this.restoreTangents(tangents);
        this.setTime(time);
        this.showPose(Number(this.time.value));
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
        const menu = document.getElementById('planar-tangent-bone');
        menu.replaceChildren(...this.lengths.map((_, b) => new Option(`bone ${b + 1}`, String(b))));
        if (this.keyTimes) { this.ik.planarKeysClear(); this.keysChanged(); }
        state.set('pl', this.lengths.join(' '));
        state.setFloats('pa', this.angles);
        return true;
    }

    // ---- keys ----
    key() {
        const t = Number(this.time.value);
        if (this.ik.planarKey(this.count, t) < 0) {
            message('planar-message', 'The key was not recorded: at most 64 keys, at times from 0 s');
            return;
        }
        this.keysChanged();
        this.setTime(t + 1);
    }

    // Keys from the URL: [t, angle_0 .. angle_n-1] per key.
    restoreKeys(flat) {
        const width = this.count + 1;
        if (flat.length % width !== 0) return;
        for (let k = 0; k < flat.length; k += width) {
            this.ik.planarSet(this.lengths, flat.slice(k + 1, k + width));
            this.ik.planarKey(this.count, flat[k]);
        }
        this.ik.planarSet(this.lengths, this.angles);
        this.keysChanged();
    }

    keysChanged() {
        this.keyTimes = this.ik.planarKeyTimes();
        const keys = this.keyTimes.map((t) => [t, ...this.ik.planarSample(t)]);
        show('planar-keys', keys.length ? `${keys.length} keys at ${this.keyTimes.map((t) => t.toFixed(2)).join(', ')} s` : 'no keys',
            { keys: JSON.stringify(keys) });
        state.setFloats('pk', keys.flat());
        this.saveTangents();
        this.setTime(Number(this.time.value));
        this.showCurve();
    }

    // The chosen bone's curve read back (its handles are drawn from it).
    showCurve() {
        this.curve = this.ik.planarCurve(Number(this.tangentBone.value));
        this.curves.dataset.curve = JSON.stringify(this.curve);
    }

    // A tangent moved: the chosen bone's curve read back, the chain posed on the curves at the current time.
    tangentsChanged() {
        this.showCurve();
        this.saveTangents();
        this.poseAt(Number(this.time.value));
    }

    // The hand-set tangents in the URL ('pt'): key, bone, in slope, out slope for each, exactly.
    saveTangents() {
        const set = [];
        for (let b = 0; b < this.count; ++b) {
            const curve = this.ik.planarCurve(b);
            curve.forEach((k, key) => { if (this.ik.planarTangentIsSet(key, b)) set.push(key, b, k.in, k.out); });
        }
        if (set.length) state.setFloats('pt', set);
        else state.remove('pt');
    }

    // Tangents from the URL, set on the keys restored before them; a quad that does not fit is skipped.
    restoreTangents(flat) {
        if (flat.length % 4 !== 0) return;
        for (let i = 0; i < flat.length; i += 4) this.ik.planarTangent(flat[i], flat[i + 1], flat[i + 2], flat[i + 3]);
        this.showCurve();
        this.saveTangents();
    }

    // The curves canvas's mapping: time to x, angle (radians, -pi..pi) to y, and back.
    curveAxes() {
        const c = this.curves, tMax = Number(this.time.max);
        return {
            x: (t) => (t / tMax) * c.width,
            y: (a) => c.height / 2 - (a / Math.PI) * (c.height / 2 - 4),
            t: (x) => (x / c.width) * tMax,
            a: (y) => ((c.height / 2 - y) / (c.height / 2 - 4)) * Math.PI,
            reach: (HANDLE_PX / c.width) * tMax,
        };
    }

    // The chosen bone's tangent handles: { key, side (-1 in, +1 out), x, y } in canvas pixels.
    handles() {
        if (!this.curve || this.curve.length !== this.keyTimes.length) return [];
        const ax = this.curveAxes(), out = [];
        this.curve.forEach((k, key) => {
            for (const side of [-1, 1]) {
                const slope = side < 0 ? k.in : k.out, dt = side * ax.reach;
                out.push({ key, side, x: ax.x(this.keyTimes[key] + dt), y: ax.y(k.value + slope * dt) });
            }
        });
        return out;
    }

    handleDown(e) {
        const r = this.curves.getBoundingClientRect(), k = this.curves.width / r.width;
        const [mx, my] = [(e.clientX - r.left) * k, (e.clientY - r.top) * k];
        let best = null, bestD = PICK_PX * k;
        for (const h of this.handles()) {
            const d = Math.hypot(h.x - mx, h.y - my);
            if (d < bestD) { best = h; bestD = d; }
        }
        this.handle = best;
        if (best) this.curves.setPointerCapture(e.pointerId);
    }

    // The slope from the key to the pointer (the pointer held on the handle's side of the key);
    // both sides take it (aligned), or with Shift only the dragged side (broken).
    handleMove(e) {
        if (!this.handle) return;
        const r = this.curves.getBoundingClientRect(), k = this.curves.width / r.width, ax = this.curveAxes();
        const { key, side } = this.handle, tk = this.keyTimes[key], kv = this.curve[key];
        const dt = side * Math.max(ax.reach * 0.1, side * (ax.t((e.clientX - r.left) * k) - tk));
        const slope = (ax.a((e.clientY - r.top) * k) - kv.value) / dt;
        const bone = Number(this.tangentBone.value);
        const [inSlope, outSlope] = e.shiftKey ? (side < 0 ? [slope, kv.out] : [kv.in, slope]) : [slope, slope];
        if (this.ik.planarTangent(key, bone, inSlope, outSlope)) this.tangentsChanged();
    }

    setTime(t) {
        const last = this.keyTimes.length ? this.keyTimes.at(-1) : 0;
        this.time.max = String(Math.max(4, Math.ceil(last + 1)));
        this.time.value = String(t);
        state.set('ptm', this.time.value);
        show('planar-time-value', `${Number(this.time.value).toFixed(2)} s`);
    }

    poseAt(t) {
        this.setTime(t);
        const xy = this.ik.planarPoseAt(this.count, t, this.base);
        if (!xy) return;
        this.xy = xy;
        this.angles = this.ik.planarAngles(this.count);
        state.setFloats('pa', this.angles);
        this.showPose(t);
    }

    showPose(t) { show('planar-pose', this.angles.map((a) => a.toFixed(4)).join(' '), { time: t, angles: JSON.stringify(this.angles) }); }

    togglePlay() {
        this.playing = !this.playing && this.keyTimes.length > 1;
        document.getElementById('planar-play').textContent = this.playing ? 'Stop' : 'Play';
    }

    // The curves: each bone's angle (radians, -pi at the bottom to pi at the top) over time, keys as ticks.
    drawCurves() {
        const c = this.curves, g = c.getContext('2d');
        if (c.width !== c.clientWidth || c.height !== c.clientHeight) {
            c.width = Math.max(1, c.clientWidth);
            c.height = Math.max(1, c.clientHeight);
        }
        g.fillStyle = '#1d2230';
        g.fillRect(0, 0, c.width, c.height);
        const tMax = Number(this.time.max), x = (t) => (t / tMax) * c.width, y = (a) => c.height / 2 - (a / Math.PI) * (c.height / 2 - 4);
        g.strokeStyle = '#323a4a';
        g.beginPath(); g.moveTo(0, y(0)); g.lineTo(c.width, y(0)); g.stroke();
        for (const t of this.keyTimes) { g.beginPath(); g.moveTo(x(t), 0); g.lineTo(x(t), c.height); g.stroke(); }
        if (this.keyTimes.length) {
            const samples = [];
            for (let i = 0; i <= 160; ++i) samples.push(this.ik.planarSample((i / 160) * tMax));
            for (let b = 0; b < this.count; ++b) {
                g.strokeStyle = `hsl(${(b * 360) / this.count}, 80%, 65%)`;
                g.lineWidth = 2;
                g.beginPath();
                samples.forEach((a, i) => g[i ? 'lineTo' : 'moveTo'](x((i / 160) * tMax), y(a[b])));
                g.stroke();
            }
        }
        // The chosen bone's tangent handles, and their page places for tests and tools.
        const r = c.getBoundingClientRect(), k = r.width / c.width, handles = this.handles();
        g.strokeStyle = '#ffffff';
        g.fillStyle = '#ffffff';
        g.lineWidth = 1;
        for (const h of handles) {
            const kx = x(this.keyTimes[h.key]), ky = y(this.curve[h.key].value);
            g.beginPath(); g.moveTo(kx, ky); g.lineTo(h.x, h.y); g.stroke();
            g.fillRect(h.x - 4, h.y - 4, 8, 8);
        }
        c.dataset.handles = JSON.stringify(handles.map((h) => ({ key: h.key, side: h.side, page: [r.left + h.x * k + window.scrollX, r.top + h.y * k + window.scrollY] })));
        const now = x(Number(this.time.value));
        g.beginPath(); g.moveTo(now, 0); g.lineTo(now, c.height); g.stroke();
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
        state.setFloats('pa', this.angles);
    }

    showSolve(r, joint) {
        const [jx, jy] = [this.xy[2 * joint], this.xy[2 * joint + 1]];
        // FK does not aim at the pointer: no error to show.
        show('planar-error', r ? r.error.toExponential(2) : '-', { value: r ? r.error : '' });
        show('planar-iterations', r ? String(r.iterations) : '-', { value: r ? r.iterations : 0 });
        show('planar-us', r ? this.timing.add(r.us).toFixed(1) : '-', { value: r ? r.us : 0 });
        show('planar-joint', `joint ${joint} at ${jx.toFixed(4)} ${jy.toFixed(4)}`, { index: joint, x: jx, y: jy });
    }

    frame(dt) {
        if (this.playing) {
            const t = Number(this.time.value) + dt;
            this.poseAt(t > this.keyTimes.at(-1) ? 0 : t);
        }
        this.drawCurves();
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
