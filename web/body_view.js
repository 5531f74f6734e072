// body_view.js: a humanoid, the built-in one (ik_humanoid_build_skeleton,
// 1.8 tall, facing +z) or a character from a glTF/GLB file dropped on the
// view (drawn with its skinned meshes), rigged by ik_humanoid_init and
// solved every frame by ik_humanoid_solve_run toward four targets the user
// drags (hands and feet), with the feet planted on a ground plane whose
// slope is set on the page (ik_ground_plane rising toward +z).
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
        this.goals = [];
        this.targets = [0, 1, 2, 3].map((l) => {
            const m = new THREE.Mesh(new THREE.SphereGeometry(0.06, 20, 14), new THREE.MeshLambertMaterial({ color: TARGET_COLORS[l] }));
            this.view.scene.add(m);
            this.view.addDraggable(m, (p) => { this.goals[l] = p.toArray(); m.position.copy(p); this.saveGoals(); });
            return m;
        });
        this.groundMesh = new THREE.Mesh(new THREE.PlaneGeometry(4, 4, 8, 8),
            new THREE.MeshLambertMaterial({ color: 0x4a5a48, side: THREE.DoubleSide }));
        this.view.scene.add(this.groundMesh);
        this.stairs = new THREE.Group();
        this.view.scene.add(this.stairs);
        this.groundOn = document.getElementById('body-ground');
        this.shape = document.getElementById('body-shape');
        this.slope = document.getElementById('body-slope');
        this.rise = document.getElementById('body-rise');
        this.groundOn.checked = state.getNumber('bo', 1) !== 0;
        this.shape.value = state.getString('bk', 'slope') === 'stairs' ? 'stairs' : 'slope';
        this.slope.value = String(state.getNumber('bs', 0, -25, 25));
        this.rise.value = String(state.getNumber('br', 15, 5, 30));
        this.groundOn.addEventListener('change', () => { state.set('bo', this.groundOn.checked ? 1 : 0); this.setGround(); });
        this.shape.addEventListener('change', () => { state.set('bk', this.shape.value); this.setGround(); });
        this.slope.addEventListener('input', () => { state.set('bs', this.slope.value); this.setGround(); });
        this.rise.addEventListener('input', () => { state.set('br', this.rise.value); this.setGround(); });
        document.getElementById('body-reset').addEventListener('click', () => this.goalsToRest());
        document.getElementById('body-builtin').addEventListener('click', () => this.useBuiltIn(''));
        document.getElementById('body-file').addEventListener('change', (e) => e.target.files[0] && this.loadFile(e.target.files[0]));
        this.timing = new RunningMedian();
        this.fps = new RunningMedian(61);
        this.useBuiltIn('', state.getNumbers('bg', null, 12));
    }

    // The built-in humanoid, with `note` as the page's message ('' for none).
    useBuiltIn(note, goals = null) {
        this.dropModel();
        this.ik.bodyInit(HEIGHT);
        this.ik.bodyRoot(null);
        this.setFigure(this.ik.body.parents, { opacity: 1 }, goals);
        show('body-figure', 'built-in humanoid');
        message('body-message', note);
    }

    dropModel() {
        if (this.model) this.view.scene.remove(this.model.scene);
        this.model = null;
    }

    async loadFile(file) {
        message('body-message', `reading ${file.name}…`, false);
        let gltf, skeleton;
        try {
            // The glTF reader (three.js's loader) is fetched the first time a file comes.
            const { parseGltf, skeletonOf, standOnGround } = await import('./figure_file.js');
            if (file.size > 64 * 1024 * 1024) throw new Error('the file is larger than 64 MiB');
            gltf = await parseGltf(await file.arrayBuffer());
            standOnGround(gltf.scene, HEIGHT);
            skeleton = skeletonOf(gltf);
        } catch (err) {
            message('body-message', `${file.name} was not loaded: ${err.message}`);
            return;
        }
        const error = this.ik.bodyLoad(skeleton);
        if (error) {
            this.useBuiltIn(`${file.name} was not loaded: ${error}. Back to the built-in humanoid.`);
            return;
        }
        this.dropModel();
        this.model = { scene: gltf.scene, bones: skeleton.bones };
        this.view.scene.add(gltf.scene);
        this.ik.bodyRoot(skeleton.rootParent.matrixWorld.elements);
        this.setFigure(skeleton.parents, { opacity: 0.55 }, null);
        show('body-figure', `${file.name}: ${skeleton.names.length} joints`);
        message('body-message', '');
    }

    // A new skeleton: its stick figure and the targets on its hands and feet at rest.
    setFigure(parents, { opacity }, goals) {
        if (this.figure) this.figure.dispose(this.view.scene);
        this.figure = new StickFigure(this.view.scene, parents, { radius: 0.02 });
        const material = this.figure.group.children[0].material;
        material.transparent = opacity < 1;
        material.opacity = opacity;
        material.depthTest = opacity === 1;
        this.setGround();
        if (goals) {
            this.goals = [0, 1, 2, 3].map((l) => goals.slice(3 * l, 3 * l + 3));
            this.goals.forEach((g, l) => this.targets[l].position.set(...g));
        } else {
            this.goalsToRest();
        }
    }

    // Targets where the hands and feet are with no goal (the rest pose, feet on the ground).
    goalsToRest() {
        [0, 1, 2, 3].forEach((l) => this.ik.bodyGoal(l, false, [0, 0, 0]));
        this.goals = this.ik.bodySolve().ends;
        this.goals.forEach((g, l) => this.targets[l].position.set(...g));
        this.saveGoals();
    }

    saveGoals() { state.set('bg', this.goals.flat()); }

    // The ground in wasm and on screen: a plane tilted by the slope, or six
    // steps (0.3 deep) rising toward +x from x = 0, as web/ikit_web.c makes them.
    setGround() {
        const on = this.groundOn.checked, stairs = this.shape.value === 'stairs';
        const a = (Number(this.slope.value) * Math.PI) / 180, rise = Number(this.rise.value) / 100;
        this.ik.bodyGround(!on ? 'none' : stairs ? 'stairs' : 'slope', stairs ? rise : Number(this.slope.value));
        this.groundMesh.visible = on;
        this.groundMesh.rotation.set(-Math.PI / 2 - (stairs ? 0 : a), 0, 0);
        this.stairs.clear();
        if (on && stairs) {
            const material = this.groundMesh.material;
            for (let k = 0; k < 6; ++k) {
                const depth = k === 5 ? 1.2 : 0.3, height = (k + 1) * rise;
                const step = new THREE.Mesh(new THREE.BoxGeometry(depth, height, 4), material);
                step.position.set(0.3 * k + depth / 2, height / 2, 0);
                this.stairs.add(step);
            }
        }
        show('body-slope-value', `${this.slope.value}°`);
        show('body-rise-value', `${this.rise.value} cm`);
    }

    frame(dt) {
        this.goals.forEach((g, l) => this.ik.bodyGoal(l, true, g));
        let r;
        try {
            r = this.ik.bodySolve();
        } catch (err) {
            message('body-message', err.message);
            return;
        }
        this.figure.update(r.positions);
        if (this.model) this.model.bones.forEach((b, j) => b.quaternion.fromArray(r.rotations, 4 * j));
        this.view.render();
        show('body-residuals', r.residuals.map((v, l) => `${LIMBS[l]} ${v.toExponential(1)}`).join(', '),
            { values: JSON.stringify(r.residuals) });
        show('body-us', this.timing.add(r.us).toFixed(0), { value: r.us });
        if (dt > 0) show('body-fps', this.fps.add(1 / dt).toFixed(0));
        const ends = r.ends;
        show('body-ends', ends.map((e) => e.map((v) => v.toFixed(3)).join(' ')).join(' | '), {
            values: JSON.stringify(ends),
            goals: JSON.stringify(this.goals),
            targets: JSON.stringify(this.goals.map((g) => this.view.toPage(g))),
            center: JSON.stringify(this.view.toPage([0, 1, 2].map((k) => r.positions.reduce((sum, v, i) => sum + (i % 3 === k ? v : 0), 0) / (r.positions.length / 3)))),
        });
    }
}
