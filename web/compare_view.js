// compare_view.js: the same target solved by two solvers side by side. The
// chain loaded in the tail view is drawn twice (solver A on the left,
// solver B on the right, each with its own pose kept from frame to frame),
// each reaching for its copy of one target; dragging either cube moves both.
import { Scene3D, StickFigure, targetCube, THREE, formatVec } from './scene3d.js';
import { CHAIN_METHODS } from './ikit.js';
import * as state from './state.js';
import { show, RunningMedian } from './readout.js';

const SIDES = [
    { key: 'a', slot: 1, offset: [-1.6, 0, 0], color: 0xff8c1a, method: 1 },
    { key: 'b', slot: 2, offset: [1.6, 0, 0], color: 0x4fc3ff, method: 2 },
];

export class CompareView {
    constructor(ik) {
        this.ik = ik;
        this.view = new Scene3D(document.getElementById('compare-view'), { center: [0, 0.2, -1.4], distance: 7.5, yaw: 0.35, pitch: 0.4 });
        this.view.scene.add(new THREE.GridHelper(10, 20, 0x556070, 0x323a4a).translateY(-1.2));
        this.target = state.getNumbers('ct', null, 3);
        for (const side of SIDES) {
            side.group = new THREE.Group();
            side.group.position.set(...side.offset);
            this.view.scene.add(side.group);
            side.cube = targetCube(side.group);
            this.view.addDraggable(side.cube, (p) => this.moveTarget(p.toArray().map((v, i) => v - side.offset[i])));
            side.select = document.getElementById(`compare-${side.key}-method`);
            CHAIN_METHODS.forEach((name, i) => side.select.add(new Option(name, String(i))));
            side.select.value = String(state.getNumber(`c${side.key}`, side.method, 0, CHAIN_METHODS.length - 1));
            side.select.addEventListener('change', () => { state.set(`c${side.key}`, side.select.value); this.ik.chainReset(side.slot); });
            side.timing = new RunningMedian();
        }
        document.addEventListener('chain-loaded', () => this.rebuild());
        this.rebuild();
    }

    rebuild() {
        const parents = this.ik.chainParents();
        for (const side of SIDES) {
            if (side.figure) side.figure.dispose(side.group);
            side.figure = new StickFigure(side.group, parents, { color: side.color });
        }
        if (!this.target) this.moveTarget(this.ik.chainFileTarget());
    }

    moveTarget(p) {
        this.target = p;
        for (const side of SIDES) side.cube.position.set(...p);
        state.set('ct', p);
    }

    frame() {
        const n = this.ik.chainJointCount();
        for (const side of SIDES) {
            const r = this.ik.chainSolve(side.slot, Number(side.select.value), this.target);
            side.figure.update(r.positions);
            const tip = r.positions.slice(3 * (n - 1), 3 * n);
            show(`compare-${side.key}-error`, r.error.toExponential(2), { value: r.error });
            show(`compare-${side.key}-iterations`, String(r.iterations), { value: r.iterations });
            show(`compare-${side.key}-us`, side.timing.add(r.us).toFixed(0), { value: r.us });
            show(`compare-${side.key}-tip`, formatVec(tip), { x: tip[0], y: tip[1], z: tip[2] });
        }
        this.view.render();
    }
}
