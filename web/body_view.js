// body_view.js: a humanoid, the built-in one (ik_humanoid_build_skeleton,
// 1.8 tall, facing +z, drawn with its body of capsules), a character from a
// glTF/GLB file dropped on the page (drawn with its skinned meshes) or a BVH
// motion (played), rigged by ik_humanoid_init and solved every frame by
// ik_humanoid_solve_run. A hand or foot target the user drags is pinned: the
// limb reaches for it; the others follow the figure's own pose (the rest pose
// or the motion). Feet stand on the ground: a slope or stairs set on the
// page; a motion stands on it where its own floor is. In full-body mode
// (ik_full_body_run, web/body_full.c) the whole body follows the hands and
// the head (a third, green target) with the feet pinned, its centre of mass
// and support drawn (balance_view.js).
import { Scene3D, StickFigure, THREE } from './scene3d.js';
import { LIMBS, LIMB_METHODS, ROLES } from './ikit.js';
import { LimitsView } from './limits_view.js';
import { BalanceView } from './balance_view.js';
import * as state from './state.js';
import { show, message, RunningMedian } from './readout.js';

const HEIGHT = 1.8;
const TARGET_COLORS = [0xff4d6d, 0xff4d6d, 0x6d8bff, 0x6d8bff];
const HEAD_COLOR = 0x3ad17a;

// The clay of ikc's pictures (tools/ikc/demo/demo_figure.c: 0.78 0.72 0.64).
const CLAY = [0xc7, 0xb8, 0xa3];

// The built-in figure's body: the library's capsules round its bones (web/body_mesh.c:
// ik_bone_mesh_build with ik_humanoid_build_body's radii, the body ikc's demo pictures draw), in
// clay, skinned to three.js bones that take the solved local rotations and translations each frame.
class CapsuleBody {
    // mesh: Ikit.bodyMesh(); rest: the rest pose's local translations (its rotations are identity).
    constructor(scene, mesh, parents, rest) {
        const geometry = new THREE.BufferGeometry();
        geometry.setAttribute('position', new THREE.BufferAttribute(mesh.positions, 3));
        geometry.setAttribute('skinIndex', new THREE.Uint16BufferAttribute(mesh.joints, 4));
        geometry.setAttribute('skinWeight', new THREE.BufferAttribute(mesh.weights, 4));
        geometry.setIndex(new THREE.BufferAttribute(mesh.indices, 1));
        geometry.computeVertexNormals();
        const color = (CLAY[0] << 16) | (CLAY[1] << 8) | CLAY[2];
        this.mesh = new THREE.SkinnedMesh(geometry, new THREE.MeshLambertMaterial({ color }));
        this.bones = parents.map((_, j) => {
            const bone = new THREE.Bone();
            bone.position.fromArray(rest, 3 * j);
            return bone;
        });
        parents.forEach((p, j) => (p < 0 ? this.mesh : this.bones[p]).add(this.bones[j]));
        // Bound at the rest pose: the vertices are in model space at rest, the mesh at the origin.
        this.mesh.updateMatrixWorld(true);
        this.mesh.bind(new THREE.Skeleton(this.bones));
        this.mesh.frustumCulled = false; // its bounds move with the pose
        scene.add(this.mesh);
    }

    update(r) {
        this.bones.forEach((b, j) => {
            b.quaternion.fromArray(r.rotations, 4 * j);
            b.position.fromArray(r.translations, 3 * j);
        });
    }

    dispose(scene) {
        scene.remove(this.mesh);
        this.mesh.geometry.dispose();
        this.mesh.material.dispose();
    }
}

export class BodyView {
    constructor(ik) {
        this.ik = ik;
        this.view = new Scene3D(document.getElementById('body-view'), { center: [0, 0.9, 0], distance: 4.2, yaw: 0.6, pitch: 0.25 });
        this.goals = [];
        this.targets = [0, 1, 2, 3].map((l) => {
            // Drawn over the body (a hand's or foot's target sits inside it), last.
            const m = new THREE.Mesh(new THREE.SphereGeometry(0.06, 20, 14),
                new THREE.MeshLambertMaterial({ color: TARGET_COLORS[l], depthTest: false }));
            m.renderOrder = 2;
            this.view.scene.add(m);
            this.view.addDraggable(m, (p) => { this.goals[l] = p.toArray(); this.pin(l, true); m.position.copy(p); this.saveGoals(); });
            return m;
        });
        // The head's target, in full-body mode only (the per-limb solve has none).
        this.headGoal = [0, 0, 0];
        this.headPinned = false;
        this.headTarget = new THREE.Mesh(new THREE.SphereGeometry(0.06, 20, 14),
            new THREE.MeshLambertMaterial({ color: HEAD_COLOR, depthTest: false }));
        this.headTarget.renderOrder = 2;
        this.view.scene.add(this.headTarget);
        this.view.addDraggable(this.headTarget, (p) => {
            if (!this.headTarget.visible) return;
            this.headGoal = p.toArray();
            this.pinHead(true);
            this.headTarget.position.copy(p);
        });
        this.balance = new BalanceView(this.view.scene);
        this.groundMesh = new THREE.Mesh(new THREE.PlaneGeometry(4, 4, 8, 8),
            new THREE.MeshLambertMaterial({ color: 0x4a5a48, side: THREE.DoubleSide }));
        this.view.scene.add(this.groundMesh);
        this.patchAt = [0, 0];
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
        document.getElementById('body-reset').addEventListener('click', () => this.releaseTargets());
        document.getElementById('body-play').addEventListener('click', () => { if (this.clip) this.clip.playing = !this.clip.playing; });
        // The clip's time: dragging it pauses the motion there (Play goes on from it).
        this.scrub = document.getElementById('body-scrub');
        this.scrub.addEventListener('input', () => {
            if (!this.clip) return;
            this.clip.playing = false;
            this.clip.time = Math.min(this.clip.duration, Math.max(0, Number(this.scrub.value)));
        });
        this.pinned = [false, false, false, false];
        this.setClip(false);
        // Full-body mode and its balance, kept in the URL.
        this.fullOn = document.getElementById('body-full');
        this.balanceOn = document.getElementById('body-balance');
        this.fullOn.checked = state.getNumber('bf', 0) !== 0;
        this.balanceOn.checked = state.getNumber('bb', 1) !== 0;
        this.fullOn.addEventListener('change', () => this.applyFull());
        this.balanceOn.addEventListener('change', () => this.applyFull());
        this.animationMenu = document.getElementById('body-animation');
        this.animationMenu.addEventListener('change', () => this.playAnimation(Number(this.animationMenu.value)));
        document.getElementById('body-builtin').addEventListener('click', () => this.useBuiltIn(''));
        document.getElementById('body-file').addEventListener('change', (e) => e.target.files[0] && this.loadFile(e.target.files[0]));
        this.timing = new RunningMedian();
        this.fps = new RunningMedian(61);
        this.limits = new LimitsView(this.view.scene);
        this.showLimits = document.getElementById('body-limits');
        this.showLimits.checked = state.getNumber('bl', 0) !== 0;
        this.showLimits.addEventListener('change', () => state.set('bl', this.showLimits.checked ? 1 : 0));
        // Each limb's solver (the rig's two-bone by default), kept in the URL as four digits.
        const solvers = state.getString('bm', '0000');
        this.solverMenus = LIMBS.map((_, l) => {
            const menu = document.getElementById(`body-solver-${l}`);
            LIMB_METHODS.forEach((name, i) => menu.add(new Option(name, String(i))));
            menu.value = String(Math.min(LIMB_METHODS.length - 1, Number(solvers[l]) || 0));
            menu.addEventListener('change', () => this.applySolvers());
            return menu;
        });
        this.applyFull();
        this.useBuiltIn('', state.getNumbers('bg', null, 12));
        const pins = state.getNumber('bp', 0, 0, 15);
        this.pinned.forEach((_, l) => this.pin(l, (pins >> l) & 1));
    }

    // A pinned target holds its limb; an unpinned one (drawn faint) follows it.
    pin(l, on) {
        this.pinned[l] = !!on;
        this.targets[l].material.transparent = !on;
        this.targets[l].material.opacity = on ? 1 : 0.4;
    }

    pinHead(on) {
        this.headPinned = !!on;
        this.headTarget.material.transparent = !on;
        this.headTarget.material.opacity = on ? 1 : 0.4;
    }

    // Full-body mode on or off (the checkboxes) in wasm and on screen: the head's target and the
    // balance drawn only in it; the limbs' solver menus only without it (the full body solves
    // every limb by two-bone IK).
    applyFull() {
        const on = this.fullOn.checked;
        this.ik.bodyFull(on, this.balanceOn.checked);
        this.balanceOn.disabled = !on;
        this.headTarget.visible = on;
        this.balance.group.visible = on;
        this.solverMenus?.forEach((m) => { m.disabled = on; });
        if (!on) show('body-balance-report', '-', { status: 'off' });
        state.set('bf', on ? 1 : 0);
        state.set('bb', this.balanceOn.checked ? 1 : 0);
    }

    // The built-in humanoid, with `note` as the page's message ('' for none).
    useBuiltIn(note, goals = null) {
        this.dropModel();
        this.setClip(false);
        this.ik.bodyInit(HEIGHT);
        const rest = this.ik.bodyTranslations(), mesh = this.ik.bodyMesh();
        this.ik.bodyRoot(null);
        // With its body the bones show through it, as over a file's mesh; without, opaque sticks.
        this.setFigure(this.ik.body.parents, { opacity: mesh ? 0.55 : 1 }, goals);
        if (mesh) this.body = new CapsuleBody(this.view.scene, mesh, this.ik.body.parents, rest);
        show('body-figure', 'built-in humanoid', { clips: '[]' });
        message('body-message', note);
    }

    dropModel() {
        if (this.model) this.view.scene.remove(this.model.scene);
        this.model = null;
        this.animationMenu.hidden = true;
    }

    async loadFile(file) {
        message('body-message', `reading ${file.name}…`, false);
        if (/\.bvh$/i.test(file.name)) {
            this.loadBvh(file.name, new Uint8Array(await file.arrayBuffer()));
            return;
        }
        let gltf;
        try {
            if (file.size > 64 * 1024 * 1024) throw new Error('the file is larger than 64 MiB');
            const bytes = await file.arrayBuffer();
            // The library reads it first: a file it refuses, or one that is no humanoid, gets its words.
            const refused = this.ik.figureCheck(new Uint8Array(bytes));
            if (refused?.read) {
                this.useBuiltIn(`${file.name} was not loaded: ${refused.message}. Back to the built-in humanoid.`);
                return;
            }
            if (refused) throw new Error(refused.message);
            // three.js's glTF loader (fetched the first time a file comes) reads it to draw it.
            const { parseGltf, standOnGround } = await import('./figure_file.js');
            gltf = await parseGltf(bytes);
            standOnGround(gltf.scene, HEIGHT);
        } catch (err) {
            message('body-message', `${file.name} was not loaded: ${err.message}`);
            return;
        }
        // The library's skeleton becomes the figure; three.js's objects of its joints' nodes draw it.
        const error = this.ik.figureUse();
        let skeleton;
        try {
            if (error) throw new Error(error);
            const { bonesOf } = await import('./figure_file.js');
            skeleton = { ...bonesOf(gltf, this.ik.body.nodes), parents: this.ik.body.parents, names: this.ik.body.names };
        } catch (err) {
            this.useBuiltIn(`${file.name} was not loaded: ${err.message}. Back to the built-in humanoid.`);
            return;
        }
        const animations = this.ik.body.animations;
        this.dropModel();
        this.setClip(false);
        this.model = { scene: gltf.scene, bones: skeleton.bones, animations, skeleton, baseY: gltf.scene.position.y };
        this.view.scene.add(gltf.scene);
        this.placeModel(null);
        this.setFigure(skeleton.parents, { opacity: 0.55 }, null);
        show('body-figure', `${file.name}: ${skeleton.names.length} joints${animations.length ? `, ${animations.length} animations` : ''}`,
            { clips: JSON.stringify(animations) });
        message('body-message', '');
        this.animationMenu.replaceChildren(new Option('(rest pose)', '-1'),
            ...animations.map((a, i) => new Option(`${a.name || `animation ${i + 1}`} (${a.duration.toFixed(2)} s)`, String(i))));
        this.animationMenu.hidden = animations.length === 0;
        if (animations.length) {
            this.animationMenu.value = '0';
            await this.playAnimation(0);
        }
    }

    // The file's animation `i` (-1: none) played on the figure, IK applied live.
    async playAnimation(i) {
        if (!this.model?.animations) return;
        if (i < 0) {
            this.setClip(false);
            this.ik.bodyTime(0);
            this.useModelRest();
            return;
        }
        const error = this.ik.figurePlay(i);
        if (error) {
            message('body-message', `animation ${i + 1} was not played: ${error}`);
            return;
        }
        message('body-message', '');
        this.placeModel(this.ik.bodyClipFloor());
        this.setClip(true);
    }

    // The loaded glTF figure again, without its animation (a figure reload clears the clip).
    useModelRest() {
        this.ik.figureUse(false);
        this.placeModel(null);
        this.patchAt = [0, 0];
        this.applySolvers();
        this.setGround();
    }

    // The file's scene where standOnGround put it, raised or lowered so that `floor` (the
    // animation's own floor, as ikc finds it: a point in the skeleton's root space, or null for
    // the rest pose's) lies on y = 0; the root matrix to wasm.
    placeModel(floor) {
        const { scene, skeleton } = this.model;
        scene.position.y = this.model.baseY;
        scene.updateMatrixWorld(true);
        if (floor) {
            scene.position.y -= new THREE.Vector3(...floor).applyMatrix4(skeleton.rootParent.matrixWorld).y;
            scene.updateMatrixWorld(true);
        }
        this.ik.bodyRoot(skeleton.rootParent.matrixWorld.elements);
    }

    // A clip from wasm playing from its start (on), or none; the time slider with it.
    setClip(on) {
        this.clip = on ? { duration: this.ik.bodyClipDuration(), time: 0, playing: true } : null;
        this.scrub.parentElement.hidden = !on;
        if (on) this.scrub.max = String(this.clip.duration);
    }

    // A BVH motion: its skeleton rigged, scaled to stand HEIGHT tall (files
    // come in inches, centimetres, anything) with its motion's own floor (as
    // ikc finds it) on y = 0, else its first frame's lowest joint; its clip playing.
    loadBvh(name, bytes) {
        const error = this.ik.bodyLoadBvh(bytes);
        if (error) {
            this.useBuiltIn(`${name} was not loaded: ${error}. Back to the built-in humanoid.`);
            return;
        }
        this.dropModel();
        this.ik.bodyRoot(null);
        this.ik.bodyGround('none', 0);
        [0, 1, 2, 3].forEach((l) => this.ik.bodyGoal(l, false, [0, 0, 0]));
        const p = this.ik.bodySolve().positions;
        const ys = p.filter((_, i) => i % 3 === 1), lo = Math.min(...ys), k = HEIGHT / Math.max(1e-6, Math.max(...ys) - lo);
        const floor = this.ik.bodyClipFloor()?.[1] ?? lo;
        this.ik.bodyRoot([k, 0, 0, 0, 0, k, 0, 0, 0, 0, k, 0, -p[0] * k, -floor * k, -p[2] * k, 1]);
        this.setClip(true);
        this.setFigure(this.ik.body.parents, { opacity: 1 }, null);
        show('body-figure', `${name}: ${this.ik.body.count} joints, ${this.clip.duration.toFixed(1)} s of motion`,
            { clips: JSON.stringify([{ duration: this.clip.duration }]) });
        message('body-message', '');
    }

    // A new skeleton: its stick figure and the targets on its hands and feet at rest.
    setFigure(parents, { opacity }, goals) {
        if (this.figure) this.figure.dispose(this.view.scene);
        this.body?.dispose(this.view.scene);
        this.body = null;
        this.applySolvers();
        this.limits.rebuild(this.ik.bodyLimits());
        this.figure = new StickFigure(this.view.scene, parents, { radius: 0.02 });
        // Each foot's joints (its ankle and all below it), for the tests' readout of the drawn feet.
        const below = (j) => [j, ...parents.flatMap((p, c) => (p === j ? below(c) : []))];
        this.footJoints = [2, 3].map((l) => this.ik.bodyLimbEnd(l)).map((j) => (j >= 0 ? below(j) : []));
        document.getElementById('body-figure').dataset.names = JSON.stringify(this.ik.body.names);
        document.getElementById('body-figure').dataset.parents = JSON.stringify(this.ik.body.parents);
        this.roles = Object.fromEntries(Object.entries(ROLES).map(([name, role]) => [name, this.ik.bodyRoleJoint(role)]));
        this.patchAt = [0, 0];
        const material = this.figure.group.children[0].material;
        material.transparent = opacity < 1;
        material.opacity = opacity;
        material.depthTest = opacity === 1;
        this.setGround();
        if (goals) {
            this.goals = [0, 1, 2, 3].map((l) => goals.slice(3 * l, 3 * l + 3));
            this.goals.forEach((g, l) => this.targets[l].position.set(...g));
        } else {
            this.releaseTargets();
        }
    }

    // The menus' solvers to wasm; a limb that cannot take one (a virtual ankle) goes back to the rig's.
    applySolvers() {
        const refused = [];
        this.solverMenus.forEach((menu, l) => {
            const error = this.ik.bodyLimbSolver(l, Number(menu.value));
            if (error) {
                refused.push(`${LIMBS[l]}: ${error}`);
                menu.value = '0';
                this.ik.bodyLimbSolver(l, 0);
            }
        });
        if (refused.length) message('body-message', refused.join('; '));
        state.set('bm', this.solverMenus.map((m) => m.value).join(''));
    }

    // Every target released, where its hand, foot or head is with no goal.
    releaseTargets() {
        [0, 1, 2, 3].forEach((l) => { this.ik.bodyGoal(l, false, [0, 0, 0]); this.pin(l, false); });
        this.ik.bodyHeadGoal(false, [0, 0, 0]);
        this.pinHead(false);
        const r = this.ik.bodySolve();
        this.goals = r.ends;
        this.goals.forEach((g, l) => this.targets[l].position.set(...g));
        this.followHead(r);
        this.saveGoals();
    }

    // An unpinned head target sits on the head.
    followHead(r) {
        const j = this.roles?.head ?? -1;
        if (this.headPinned || j < 0) return;
        this.headGoal = Array.from(r.positions.slice(3 * j, 3 * j + 3));
        this.headTarget.position.set(...this.headGoal);
    }

    saveGoals() {
        state.set('bg', this.goals.flat());
        state.set('bp', this.pinned.reduce((bits, on, l) => bits | (on ? 1 << l : 0), 0));
    }

    // The ground in wasm and on screen: a plane tilted by the slope, or six
    // steps (0.3 deep) rising toward +x from x = 0, as web/ikit_web.c makes them.
    setGround() {
        const on = this.groundOn.checked, stairs = this.shape.value === 'stairs';
        const a = (Number(this.slope.value) * Math.PI) / 180, rise = Number(this.rise.value) / 100;
        this.ik.bodyGround(!on ? 'none' : stairs ? 'stairs' : 'slope', stairs ? rise : Number(this.slope.value));
        this.groundMesh.visible = on;
        this.groundMesh.rotation.set(-Math.PI / 2 - (stairs ? 0 : a), 0, 0);
        this.placePatch();
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

    // The slope's patch (4 m square) under `patchAt` (x, z: the figure's hips while a clip plays,
    // which can walk off it), in the plane of the ground in wasm (through the origin, rising toward +z);
    // the stairs stay where they are.
    placePatch() {
        const [x, z] = this.shape.value === 'stairs' ? [0, 0] : this.patchAt;
        this.groundMesh.position.set(x, z * Math.tan((Number(this.slope.value) * Math.PI) / 180), z);
    }

    // The full body's report in the readout, and for the tests: the balance, the centre of mass
    // and the support (scene, and the centre and the point under it on the page), where the hips,
    // chest, head, right shoulder and hand are (scene) and the head's target (page).
    showBalance(r, under) {
        const b = r.balance, at = (j) => (j >= 0 ? Array.from(r.positions.slice(3 * j, 3 * j + 3)) : null);
        show('body-balance-report', `${b.summary} (${b.iterations} body steps)`, {
            status: b.status,
            inside: b.inside,
            centre: JSON.stringify(b.centre),
            support: JSON.stringify(b.support),
            centrePage: JSON.stringify(this.view.toPage(b.centre)),
            underPage: JSON.stringify(under ? this.view.toPage(under) : null),
            supportPage: JSON.stringify(b.support.map((p) => this.view.toPage(p))),
            joints: JSON.stringify(Object.fromEntries(Object.entries(this.roles).map(([name, j]) => [name, at(j)]))),
            headTarget: JSON.stringify(this.view.toPage(this.headGoal)),
        });
    }

    frame(dt) {
        if (this.clip) {
            if (this.clip.playing) this.clip.time = (this.clip.time + dt) % Math.max(this.clip.duration, 1e-3);
            this.ik.bodyTime(this.clip.time);
            show('body-time', `${this.clip.time.toFixed(2)} / ${this.clip.duration.toFixed(2)} s`, { value: this.clip.time });
            if (this.clip.playing) this.scrub.value = String(this.clip.time);
        }
        this.goals.forEach((g, l) => this.ik.bodyGoal(l, this.pinned[l], g));
        if (this.ik.full) this.ik.bodyHeadGoal(this.headPinned, this.headGoal);
        let r;
        try {
            r = this.ik.bodySolve();
        } catch (err) {
            message('body-message', err.message);
            return;
        }
        this.figure.update(r.positions);
        this.body?.update(r);
        r.ends.forEach((e, l) => { if (!this.pinned[l]) { this.goals[l] = e; this.targets[l].position.set(...e); } });
        this.followHead(r);
        const under = r.balance ? this.balance.update(r.balance) : null;
        if (this.clip) {
            // Follow the motion with the camera, and with the ground's patch.
            this.view.orbit.center.set(r.positions[0], this.view.orbit.center.y, r.positions[2]);
            this.view.placeCamera();
            this.patchAt = [r.positions[0], r.positions[2]];
            this.placePatch();
        }
        if (this.model) {
            this.model.bones.forEach((b, j) => {
                b.quaternion.fromArray(r.rotations, 4 * j);
                b.position.fromArray(r.translations, 3 * j);
            });
        }
        this.limits.group.visible = this.showLimits.checked;
        const arcs = this.showLimits.checked ? this.limits.update(this.ik.bodyLimits()) : [];
        this.view.render();
        if (r.balance) this.showBalance(r, under);
        show('body-limits-drawn', this.showLimits.checked ? 'drawn' : 'hidden', { arcs: JSON.stringify(arcs.map((p) => this.view.toPage(p))) });
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
            // the drawn joints: on the page, and the feet's in the scene
            joints: JSON.stringify(Array.from({ length: r.positions.length / 3 }, (_, j) => this.view.toPage(r.positions.slice(3 * j, 3 * j + 3)))),
            feet: JSON.stringify(this.footJoints.map((js) => js.map((j) => Array.from(r.positions.slice(3 * j, 3 * j + 3))))),
        });
    }
}
