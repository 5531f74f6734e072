// robot_view.js: a robot arm from a URDF file (examples/six_axis_arm.urdf
// until one is dropped on the page or opened), read in wasm by the library's
// URDF reader (ikc's words for a bad file), its chain from the root link to a
// chosen tip link (ik_urdf_robot_chain) solved every frame by ikit's pose IK (ik_robot_ik_run, limits
// kept, warm-started). The user drags the goal (the green ball with its
// axes) and turns it with the X, Y, Z keys (Shift: the other way); each
// joint's value is shown, and can be set, on a slider spanning its limits.
// URDF is z-up; the arm is drawn turned so that z is three.js's y.
// The "cell" switch puts a table, a wall, a post and a ball around the arm (sized from its reach) and
// models the arm by a capsule round each drawn link: the goal is then solved collision-free
// (ik_robot_free_ik_run), each pose checked (ik_robot_collision_check), links in contact drawn red.
import { Scene3D, THREE, formatVec } from './scene3d.js';
import * as state from './state.js';
import { show, message, RunningMedian } from './readout.js';

const LINK_COLOR = 0xff8c1a, JOINT_COLOR = 0x5aa0ff, GOAL_COLOR = 0x3ad17a;
// The cell (web/robot_cell.c): obstacles grey-blue, the arm's capsules pale when free, red within the margin.
const OBSTACLE_COLOR = 0x7f8ea8, CAPSULE_COLOR = 0xd8dce6, CONTACT_COLOR = 0xff2020, CONTACT_GLOW = 0x801010;
const TURN_STEP = Math.PI / 18;
// The arms the page carries, by the name a link gives ('rf'); a dropped file is named '~' + its file name.
const BUILT_IN = { six_axis_arm: './six_axis_arm.urdf' };

export class RobotView {
    constructor(ik) {
        this.ik = ik;
        this.view = new Scene3D(document.getElementById('robot-view'), { center: [0, 0.45, 0], distance: 2.6, yaw: 0.7, pitch: 0.35 });
        this.view.scene.add(new THREE.GridHelper(4, 20, 0x556070, 0x323a4a));
        this.arm = new THREE.Group();
        this.arm.rotation.x = -Math.PI / 2;
        this.view.scene.add(this.arm);
        this.drawing = new THREE.Group();
        this.arm.add(this.drawing);
        this.goal = new THREE.Group();
        const ball = new THREE.Mesh(new THREE.SphereGeometry(0.035, 20, 14), new THREE.MeshLambertMaterial({ color: GOAL_COLOR }));
        this.goal.add(ball, new THREE.AxesHelper(0.14));
        this.arm.add(this.goal);
        this.view.addDraggable(ball, (p) => { this.goal.position.copy(this.arm.worldToLocal(p.clone())); this.saveGoal(); });
        // A link's robot, tip link, goal (position, quaternion) and joints: the goal is kept in 32-bit
        // floats as wasm solves it, so the link carries it exactly; from a linked dropped file, the goal
        // and joints wait for that file.
        const file = state.getString('rf', 'six_axis_arm');
        this.linked = { file, tip: state.getString('rt', null), goal: state.getFloats('rg', null, 7), q: state.getFloats('rq', null) };
        this.orientation = document.getElementById('robot-orientation');
        this.orientation.checked = state.getNumber('ro', 1) !== 0;
        this.orientation.addEventListener('change', () => state.set('ro', this.orientation.checked ? 1 : 0));
        this.cellBox = document.getElementById('robot-cell');
        this.cellBox.checked = state.getNumber('rc', 0) !== 0;
        this.cellBox.addEventListener('change', () => { state.set('rc', this.cellBox.checked ? 1 : 0); this.applyCell(); });
        this.cellGroup = new THREE.Group();
        this.arm.add(this.cellGroup);
        this.tipMenu = document.getElementById('robot-tip-link');
        this.tipMenu.addEventListener('change', () => this.useTip(Number(this.tipMenu.value)));
        document.getElementById('robot-file').addEventListener('change', (e) => e.target.files[0] && this.loadFile(e.target.files[0]));
        document.getElementById('robot-builtin').addEventListener('click', () => { this.linked = null; this.loadDefault(); });
        document.getElementById('robot-home').addEventListener('click', () => this.home());
        window.addEventListener('keydown', (e) => this.key(e));
        this.timing = new RunningMedian();
        this.loadDefault(BUILT_IN[file] ? file : 'six_axis_arm');
    }

    // Each load takes a ticket: a file dropped while the built-in arm is still being fetched wins.
    async loadDefault(name = 'six_axis_arm') {
        const ticket = this.nextTicket();
        const response = await fetch(BUILT_IN[name]);
        if (ticket !== this.tickets) return;
        if (!response.ok) {
            message('robot-message', `cannot load ${name}.urdf: HTTP ${response.status}`);
            return;
        }
        const bytes = new Uint8Array(await response.arrayBuffer());
        if (ticket === this.tickets) this.load(`${name}.urdf`, bytes, name);
    }

    nextTicket() {
        this.tickets = (this.tickets ?? 0) + 1;
        return this.tickets;
    }

    async loadFile(file) {
        if (file.size > 256 * 1024 * 1024) {
            message('robot-message', `${file.name} was not loaded: the file is too large`);
            return;
        }
        const ticket = this.nextTicket();
        const bytes = new Uint8Array(await file.arrayBuffer());
        if (ticket === this.tickets) this.load(file.name, bytes, `~${file.name}`);
    }

    // A URDF document (`id`: its name in a link, see BUILT_IN); on any error the message says why
    // and the old arm stays. The link's tip, goal and joints are taken when the link names this robot.
    load(name, bytes, id) {
        const { robot, error } = this.ik.robotRead(bytes);
        if (error) {
            message('robot-message', `${name} was not loaded: ${error}`);
            return false;
        }
        const tips = robot.tips;
        const linked = this.linked?.file === id ? this.linked : null;
        const tip = tips.find((l) => robot.links[l] === linked?.tip) ?? tips[0];
        if (!this.useTip(tip, linked, robot, name)) return false;
        if (linked) this.linked = null;
        this.tipMenu.replaceChildren(...tips.map((l) => new Option(robot.links[l], String(l))));
        this.tipMenu.value = String(tip);
        this.fileName = name;
        state.set('rf', id);
        show('robot-name', `${name}: ${robot.name || 'robot'}, ${robot.links.length} links, ${robot.jointCount} joints`);
        const waiting = this.linked?.file.startsWith('~') ? this.linked.file.slice(1) : null;
        message('robot-message', id.startsWith('~') ? `${name} is a file from your disk: a link to this page cannot carry it ` +
            `(the link keeps the goal and joints, shown when ${name} is opened again).`
            : waiting ? `This link was made with ${waiting}, a file opened from a disk, which a link cannot carry: ` +
            `open or drop ${waiting} to see the link's goal and joints on it (the built-in arm until then).` : '', false);
        return true;
    }

    // The chain from the root to link `tip`, posed at its start (zero inside the limits) or at a
    // link's joints (`pose.q`, when they fit), the goal on its tool or at the link's (`pose.goal`).
    // `robot`: one just read (robotRead), named `name`, which becomes the loaded one.
    useTip(tip, pose = null, robot = this.robot, name = null) {
        const error = this.ik.robotUse(tip);
        if (error) {
            message('robot-message', name ? `${name} was not loaded: ${error}` : `The chain to '${robot.links[tip]}' was not loaded: ${error}`);
            return false;
        }
        this.robot = robot;
        this.chain = this.ik.robotChain;
        this.buildDrawing();
        this.buildSliders();
        this.applyCell();
        state.set('rt', robot.links[tip]);
        if (pose?.q?.length === this.chain.variables.length) this.ik.robotPose(pose.q);
        if (pose?.goal) {
            this.goal.position.fromArray(pose.goal, 0);
            this.goal.quaternion.fromArray(pose.goal, 3);
            this.saveGoal();
        } else {
            this.goalToTool();
        }
        return true;
    }

    // Back to the start pose, the goal on the tool.
    home() {
        const s = this.ik.robotState();
        this.ik.robotPose(s.q.map((_, v) => (s.lower[v] <= 0 && s.upper[v] >= 0 ? 0 : s.lower[v])));
        this.goalToTool();
    }

    goalToTool() {
        const f = this.ik.robotState().frames, at = f.length - 7;
        this.goal.position.set(f[at], f[at + 1], f[at + 2]);
        this.goal.quaternion.set(f[at + 3], f[at + 4], f[at + 5], f[at + 6]);
        this.saveGoal();
    }

    // The goal rounded to 32-bit floats (what the solve takes) and kept in the URL exactly.
    saveGoal() {
        const g = [...this.goal.position.toArray(), ...this.goal.quaternion.toArray()].map(Math.fround);
        this.goal.position.fromArray(g, 0);
        this.goal.quaternion.fromArray(g, 3);
        state.setFloats('rg', g);
    }

    // Links as rods from each link frame's origin to the next; moving joints as
    // short cylinders along their axes (revolute, continuous) or boxes (prismatic).
    buildDrawing() {
        this.drawing.clear();
        const linkMaterial = new THREE.MeshBasicMaterial({ color: LINK_COLOR });
        const jointMaterial = new THREE.MeshLambertMaterial({ color: JOINT_COLOR });
        const rod = new THREE.CylinderGeometry(0.018, 0.018, 1, 10).translate(0, 0.5, 0);
        this.rods = this.chain.joints.map(() => {
            const mesh = new THREE.Mesh(rod, linkMaterial);
            this.drawing.add(mesh);
            return mesh;
        });
        this.jointMarks = this.chain.joints.map((j) => {
            if (j.type === 0) return null;
            const geometry = j.type === 3 ? new THREE.BoxGeometry(0.05, 0.09, 0.05) : new THREE.CylinderGeometry(0.04, 0.04, 0.09, 20);
            const mesh = new THREE.Mesh(geometry, jointMaterial);
            mesh.userData.axis = new THREE.Vector3(...j.axis).normalize();
            this.drawing.add(mesh);
            return mesh;
        });
        this.tool = new THREE.AxesHelper(0.1);
        this.drawing.add(this.tool);
    }

    // The cell on or off (the C side keeps it across arms and rebuilds it for each chain): its
    // obstacles drawn, capsules made when the first check comes.
    applyCell() {
        this.cellGroup.clear();
        this.capsules = null;
        const obstacles = this.ik.robotCell(this.cellBox.checked);
        const material = new THREE.MeshLambertMaterial({ color: OBSTACLE_COLOR, transparent: true, opacity: 0.55 });
        for (const o of obstacles) {
            const geometry = o.shape === 'box' ? new THREE.BoxGeometry(...o.size)
                : o.shape === 'sphere' ? new THREE.SphereGeometry(o.size[0], 24, 16)
                : new THREE.CylinderGeometry(o.size[0], o.size[0], o.size[1], 24).rotateX(Math.PI / 2); // along z
            const mesh = new THREE.Mesh(geometry, material);
            mesh.position.fromArray(o.pose, 0);
            mesh.quaternion.fromArray(o.pose, 3);
            mesh.name = o.name;
            this.cellGroup.add(mesh);
        }
        if (!obstacles.length) show('robot-cell-state', 'off', { state: 'off', clearance: '', red: 0, contacts: '' });
    }

    // Each capsule as a cylinder and two balls, pale when its link keeps the margin, red when not.
    drawCapsules(cell) {
        if (!this.capsules || this.capsules.length !== cell.capsules.length) {
            this.capsules = cell.capsules.map(() => {
                const material = new THREE.MeshLambertMaterial({ color: CAPSULE_COLOR, transparent: true, opacity: 0.35 });
                const group = new THREE.Group();
                const body = new THREE.Mesh(new THREE.CylinderGeometry(1, 1, 1, 16, 1, true).translate(0, 0.5, 0), material);
                const ends = [0, 1].map(() => new THREE.Mesh(new THREE.SphereGeometry(1, 16, 10), material));
                group.add(body, ...ends);
                this.cellGroup.add(group);
                return { material, body, ends };
            });
        }
        const up = new THREE.Vector3(0, 1, 0);
        cell.capsules.forEach((c, i) => {
            const m = this.capsules[i], a = new THREE.Vector3(...c.a), b = new THREE.Vector3(...c.b);
            const d = b.clone().sub(a), length = d.length();
            m.material.color.setHex(c.contact ? CONTACT_COLOR : CAPSULE_COLOR);
            m.material.emissive.setHex(c.contact ? CONTACT_GLOW : 0);
            m.material.opacity = c.contact ? 1 : 0.35;
            // A link in contact is often inside the obstacle: drawn over everything, so it shows.
            m.material.depthTest = !c.contact;
            [m.body, ...m.ends].forEach((mesh) => { mesh.renderOrder = c.contact ? 10 : 0; });
            m.body.visible = length > 1e-6;
            m.body.position.copy(a);
            if (length > 1e-6) m.body.quaternion.setFromUnitVectors(up, d.divideScalar(length));
            m.body.scale.set(c.radius, length, c.radius);
            m.ends[0].position.copy(a);
            m.ends[1].position.set(...c.b);
            m.ends.forEach((e) => e.scale.setScalar(c.radius));
        });
    }

    // One slider per variable, spanning its limits (a continuous joint: one turn).
    buildSliders() {
        const s = this.ik.robotState();
        const rows = this.chain.variables.map((v, i) => {
            const row = document.createElement('label');
            const slider = Object.assign(document.createElement('input'), { type: 'range', min: s.lower[i], max: s.upper[i], step: 0.001 });
            slider.dataset.variable = String(i);
            slider.addEventListener('input', () => {
                const q = this.ik.robotState().q;
                q[i] = Number(slider.value);
                this.ik.robotPose(q);
                this.goalToTool();
            });
            const value = document.createElement('span');
            row.append(`${v} `, slider, value);
            return { row, slider, value };
        });
        this.sliders = rows;
        document.getElementById('robot-joints').replaceChildren(...rows.map((r) => r.row));
    }

    key(e) {
        if (!this.active || e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
        const axes = { x: [1, 0, 0], y: [0, 1, 0], z: [0, 0, 1] };
        const axis = axes[e.key.toLowerCase()];
        if (!axis) return;
        e.preventDefault();
        // Turn the goal about the base frame's axis: q' = turn * q.
        const turn = new THREE.Quaternion().setFromAxisAngle(new THREE.Vector3(...axis), e.shiftKey ? -TURN_STEP : TURN_STEP);
        this.goal.quaternion.premultiply(turn);
        this.saveGoal();
    }

    frame() {
        if (!this.chain) return false;
        const g = this.goal;
        let r;
        try {
            r = this.ik.robotSolve(g.position.toArray(), g.quaternion.toArray(), this.orientation.checked);
        } catch (err) {
            message('robot-message', err.message);
            return;
        }
        this.draw(r.frames);
        if (r.cell) {
            this.drawCapsules(r.cell);
            const reds = r.cell.capsules.filter((c) => c.contact), red = reds.length;
            // For the browser test: the higher end of the first red capsule, in page pixels.
            const top = reds.length ? (reds[0].a[2] > reds[0].b[2] ? reds[0].a : reds[0].b) : null;
            const redPage = top ? JSON.stringify(this.view.toPage(this.arm.localToWorld(new THREE.Vector3(...top)).toArray())) : '';
            show('robot-cell-state', r.cell.free ? `free, clearance ${(r.cell.clearance * 1000).toFixed(1)} mm (${r.cell.closest.replace(/ -?[0-9.]+ m$/, '')}; ${r.cell.candidates} solve${r.cell.candidates === 1 ? '' : 's'})`
                : `${r.cell.contactCount} contact${r.cell.contactCount === 1 ? '' : 's'} within ${(r.cell.margin * 1000).toFixed(0)} mm: ${r.cell.contacts}`,
            { state: r.cell.free ? 'free' : 'contact', clearance: r.cell.clearance, red, redPage, contacts: r.cell.contacts });
        }
        this.view.render();
        const f = r.frames, at = f.length - 7, tip = [f[at], f[at + 1], f[at + 2]];
        const goalWorld = this.arm.localToWorld(g.position.clone()).toArray();
        show('robot-error', `${r.positionError.toExponential(2)} m, ${r.angleError.toExponential(2)} rad${r.reached ? '' : ' (not reached)'}`,
            { value: r.positionError, angle: r.angleError, reached: r.reached, goalPage: JSON.stringify(this.view.toPage(goalWorld)) });
        show('robot-iterations', String(r.iterations));
        show('robot-us', this.timing.add(r.us).toFixed(0), { value: r.us });
        const toPage = (k) => this.view.toPage(this.arm.localToWorld(new THREE.Vector3(f[7 * k], f[7 * k + 1], f[7 * k + 2])).toArray());
        show('robot-tip', formatVec(tip), { values: JSON.stringify(tip), links: JSON.stringify(Array.from({ length: f.length / 7 }, (_, k) => toPage(k))) });
        show('robot-goal', formatVec(g.position.toArray()), { values: JSON.stringify(g.position.toArray()) });
        this.sliders.forEach((s, v) => {
            s.slider.value = String(r.q[v]);
            s.value.textContent = `${r.q[v].toFixed(3)} [${r.lower[v].toFixed(2)}, ${r.upper[v].toFixed(2)}]`;
        });
        document.getElementById('robot-joints').dataset.values = JSON.stringify({ q: r.q, lower: r.lower, upper: r.upper });
        state.setFloats('rq', r.q);
    }

    // Rods and joint marks from the link frames (base frame, 7 numbers each).
    draw(frames) {
        const at = (k) => new THREE.Vector3(frames[7 * k], frames[7 * k + 1], frames[7 * k + 2]);
        const up = new THREE.Vector3(0, 1, 0);
        this.chain.joints.forEach((_, k) => {
            const from = at(k), to = at(k + 1), d = to.clone().sub(from), length = d.length();
            const rod = this.rods[k];
            rod.visible = length > 1e-6;
            if (rod.visible) {
                rod.position.copy(from);
                rod.quaternion.setFromUnitVectors(up, d.divideScalar(length));
                rod.scale.set(1, length, 1);
            }
            const mark = this.jointMarks[k];
            if (!mark) return;
            // The joint's axis turns with its child link's frame (a turn about the axis leaves it fixed).
            const linkTurn = new THREE.Quaternion().fromArray(frames, 7 * (k + 1) + 3);
            mark.position.copy(to);
            mark.quaternion.setFromUnitVectors(up, mark.userData.axis.clone().applyQuaternion(linkTurn));
        });
        const n = this.chain.joints.length;
        this.tool.position.copy(at(n));
        this.tool.quaternion.fromArray(frames, 7 * n + 3);
    }
}
