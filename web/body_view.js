// body_view.js: the built-in humanoid (ik_humanoid_build_skeleton, 1.8 tall,
// facing +z) rigged by ik_humanoid_init and solved every frame by
// ik_humanoid_solve_run toward four targets the user drags (hands and feet),
// with the feet planted on a ground plane whose slope is set on the page
// (ik_ground_plane rising toward +z).
import { Scene3D, StickFigure, THREE } from './scene3d.js';
import { LIMBS } from './ikit.js';
import * as state from './state.js';
import { show, message, RunningMedian } from './readout.js';

const HEIGHT = 1.8;
const TARGET_COLORS = [0xff4d6d, 0xff4d6d, 0x6d8bff, 0x6d8bff];

export class BodyView {
    constructor(ik) {
        this.ik = ik;
        this.view = new Scene3D(document.getElementById('body-view'), { center: [0, 0.9, 0], distance: 4.2, yaw: 0.6, pitch: 0.25 });
        const body = ik.bodyInit(HEIGHT);
        this.figure = new StickFigure(this.view.scene, body.parents, { radius: 0.02 });
        const rest = ik.bodyPositions();
        const saved = state.getNumbers('bg', null, 12);
        this.goals = body.limbEnds.map((j, l) => (saved ? saved.slice(3 * l, 3 * l + 3) : Array.from(rest.slice(3 * j, 3 * j + 3))));
        this.targets = this.goals.map((g, l) => {
            const m = new THREE.Mesh(new THREE.SphereGeometry(0.06, 20, 14), new THREE.MeshLambertMaterial({ color: TARGET_COLORS[l] }));
            m.position.set(...g);
            this.view.scene.add(m);
            this.view.addDraggable(m, (p) => { this.goals[l] = p.toArray(); m.position.copy(p); this.saveGoals(); });
            return m;
        });
        this.groundMesh = new THREE.Mesh(new THREE.PlaneGeometry(4, 4, 8, 8),
            new THREE.MeshLambertMaterial({ color: 0x4a5a48, side: THREE.DoubleSide }));
        this.view.scene.add(this.groundMesh);
        this.groundOn = document.getElementById('body-ground');
        this.slope = document.getElementById('body-slope');
        this.groundOn.checked = state.getNumber('bo', 1) !== 0;
        this.slope.value = String(state.getNumber('bs', 0, -25, 25));
        this.groundOn.addEventListener('change', () => { state.set('bo', this.groundOn.checked ? 1 : 0); this.setGround(); });
        this.slope.addEventListener('input', () => { state.set('bs', this.slope.value); this.setGround(); });
        document.getElementById('body-reset').addEventListener('click', () => {
            body.limbEnds.forEach((j, l) => { this.goals[l] = Array.from(rest.slice(3 * j, 3 * j + 3)); this.targets[l].position.set(...this.goals[l]); });
            this.saveGoals();
        });
        this.timing = new RunningMedian();
        this.fps = new RunningMedian(61);
        this.setGround();
    }

    saveGoals() { state.set('bg', this.goals.flat()); }

    setGround() {
        const on = this.groundOn.checked, a = (Number(this.slope.value) * Math.PI) / 180;
        this.ik.bodyGround(on, Number(this.slope.value));
        this.groundMesh.visible = on;
        this.groundMesh.rotation.set(-Math.PI / 2 - a, 0, 0);
        show('body-slope-value', `${this.slope.value}°`);
    }

    frame(dt) {
        this.goals.forEach((g, l) => this.ik.bodyGoal(l, true, g));
        let r;
        try {
            r = this.ik.bodySolve();
            message('body-message', '');
        } catch (err) {
            message('body-message', err.message);
            return;
        }
        this.figure.update(r.positions);
        this.view.render();
        show('body-residuals', r.residuals.map((v, l) => `${LIMBS[l]} ${v.toExponential(1)}`).join(', '),
            { values: JSON.stringify(r.residuals) });
        show('body-us', this.timing.add(r.us).toFixed(0), { value: r.us });
        if (dt > 0) show('body-fps', this.fps.add(1 / dt).toFixed(0));
        const ends = this.ik.body.limbEnds.map((j) => Array.from(r.positions.slice(3 * j, 3 * j + 3)));
        show('body-ends', ends.map((e) => e.map((v) => v.toFixed(3)).join(' ')).join(' | '), {
            values: JSON.stringify(ends),
            goals: JSON.stringify(this.goals),
            targets: JSON.stringify(this.goals.map((g) => this.view.toPage(g))),
        });
    }
}
