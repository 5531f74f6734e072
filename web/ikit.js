// ikit.js: the playground's JavaScript over ikit.wasm (web/ikit_web.c).
// No Emscripten: the module is a WASI "reactor" (no main; _initialize runs
// wasi-libc's constructors once); its few WASI imports (stdio and files,
// never used by the exported calls) are answered with ENOSYS, but for the
// preopened directories wasi-libc's constructor asks for (the io layer's file
// readers are linked in): EBADF, "none".
// Every number crosses as a plain argument; arrays are read and written as
// typed-array views of the module's memory, made afresh on each access
// because memory.grow (malloc) detaches old views.

const ENOSYS = 52, EBADF = 8;
const wasiStub = new Proxy({}, { get: (_, name) => () => (name === 'fd_prestat_get' ? EBADF : ENOSYS) });

// Solver menus, in the order of ikw_method and ik_planar_chain_method.
export const CHAIN_METHODS = ['DLS + springs (seed 002)', 'CCD', 'FABRIK', 'SDLS + springs', 'Jacobian transpose + springs'];
export const PLANAR_METHODS = ['CCD', 'FABRIK', 'gradient descent (seed 003)'];
export const LIMBS = ['left hand', 'right hand', 'left foot', 'right foot'];
// Each limb's solver menu, in the order of ikw_limb_method (web/ikit_web.h).
export const LIMB_METHODS = ['two-bone (the rig\'s)', 'FABRIK', 'CCD', 'DLS'];
export const LIMIT_FLOATS = 20; // IKW_LIMIT_FLOATS
// Humanoid roles (ik_humanoid_role) the page asks the joints of, and the full body's balance
// (ik_balance_status) in the order of the enum.
export const ROLES = { hips: 0, chest: 2, head: 4, rightUpperArm: 8, rightForearm: 10, rightHand: 12 };
export const BALANCE = ['off', 'kept', 'no support', 'lost'];
const MAX_SUPPORT = 8; // IK_FULL_BODY_MAX_SUPPORT

export class Ikit {
    // `module`: ikit.wasm compiled (a WebAssembly.Module, or a promise of one: index.html starts
    // compiling it while the page's JavaScript loads).
    static async load(module) {
        const instance = await WebAssembly.instantiate(await module, { wasi_snapshot_preview1: wasiStub });
        instance.exports._initialize?.();
        return new Ikit(instance.exports);
    }

    constructor(exports) {
        this.x = exports;
    }

    f32(ptr, count) { return new Float32Array(this.x.memory.buffer, ptr, count); }
    i32(ptr, count) { return new Int32Array(this.x.memory.buffer, ptr, count); }
    string(ptr) {
        const bytes = new Uint8Array(this.x.memory.buffer, ptr);
        return new TextDecoder().decode(bytes.subarray(0, bytes.indexOf(0)));
    }
    message() { return this.string(this.x.ikw_message()); }
    resultString(code) { return this.string(this.x.ikw_result_str(code)); }
    check(code, what) {
        if (code !== 0) throw new Error(`${what}: ${this.message() || this.resultString(code)}`);
    }

    // ---- chain files (three slots of one chain) ----
    // Returns null on success, else the reader's message (line and column).
    loadChain(text) {
        const bytes = new TextEncoder().encode(text);
        if (bytes.length > this.x.ikw_text_capacity()) return 'the chain text is longer than 64 KiB';
        new Uint8Array(this.x.memory.buffer, this.x.ikw_text_buffer(), bytes.length).set(bytes);
        const code = this.x.ikw_chain_load(bytes.length);
        return code === 0 ? null : this.message() || this.resultString(code);
    }
    chainJointCount() { return this.x.ikw_chain_joint_count(); }
    chainParents() { return Array.from(this.i32(this.x.ikw_chain_parents(), this.chainJointCount())); }
    chainFileTarget() { return Array.from(this.f32(this.x.ikw_chain_file_target(), 3)); }
    chainReset(slot) { this.x.ikw_chain_reset(slot); }
    // One solve of `slot` toward `target` [x, y, z], timed over `repeats` runs
    // from the same start. Returns { error, iterations, us, positions }.
    chainSolve(slot, method, target, { gravity = 0, repeats = 1 } = {}) {
        const t0 = performance.now();
        const code = this.x.ikw_chain_solve(slot, method, target[0], target[1], target[2], gravity, repeats);
        const us = ((performance.now() - t0) * 1000) / repeats;
        this.check(code, 'chain solve');
        return {
            error: this.x.ikw_chain_error(slot),
            iterations: this.x.ikw_chain_iterations(slot),
            us,
            positions: this.chainPositions(slot),
        };
    }
    chainPositions(slot) { return Float32Array.from(this.f32(this.x.ikw_chain_positions(slot), 3 * this.chainJointCount())); }

    // ---- seed 003's planar chain ----
    planarSet(lengths, angles) {
        const max = this.x.ikw_planar_max_bones();
        if (lengths.length < 1 || lengths.length > max) throw new Error(`a planar chain has 1 to ${max} bones`);
        this.f32(this.x.ikw_planar_lengths(), lengths.length).set(lengths);
        this.f32(this.x.ikw_planar_angles(), angles.length).set(angles);
    }
    planarAngles(count) { return Array.from(this.f32(this.x.ikw_planar_angles(), count)); }
    planarXY(count) { return Array.from(this.f32(this.x.ikw_planar_xy(), 2 * (count + 1))); }
    planarFK(count, base) { this.check(this.x.ikw_planar_fk(count, base[0], base[1]), 'planar FK'); return this.planarXY(count); }
    planarSolve(count, joint, method, base, target, { maxIterations = 50, repeats = 1 } = {}) {
        const t0 = performance.now();
        const code = this.x.ikw_planar_solve(count, joint, method, base[0], base[1], target[0], target[1], maxIterations, repeats);
        const us = ((performance.now() - t0) * 1000) / repeats;
        this.check(code, 'planar solve');
        return { error: this.x.ikw_planar_error(), iterations: this.x.ikw_planar_iterations(), us, xy: this.planarXY(count) };
    }

    // Keys and curves (web/planar_keys.c): record the current angles at a
    // time; sample the curves; pose the chain at a time.
    planarKey(count, time) { return this.x.ikw_planar_key(count, time); }
    planarKeysClear() { this.x.ikw_planar_keys_clear(); }
    planarKeyTimes() { return Array.from({ length: this.x.ikw_planar_key_count() }, (_, k) => this.x.ikw_planar_key_time(k)); }
    planarSample(time) {
        const n = this.x.ikw_planar_sample(time);
        return n < 0 ? null : Array.from(this.f32(this.x.ikw_planar_sampled(), n));
    }
    // Tangents (slopes in radians per second): set by hand, back to the computed ones, read.
    planarTangent(key, bone, inSlope, outSlope) { return this.x.ikw_planar_tangent(key, bone, inSlope, outSlope) === 0; }
    planarTangentsAuto() { this.x.ikw_planar_tangents_auto(); }
    planarTangentIsSet(key, bone) { return this.x.ikw_planar_tangent_is_set(key, bone) === 1; }
    // Bone `bone`'s curve: [{ in, value, out }] per key, as the clip's CUBICSPLINE channel holds it.
    planarCurve(bone) {
        const ptr = this.x.ikw_planar_curve(bone), stride = this.x.ikw_planar_curve_stride(), n = this.x.ikw_planar_key_count();
        if (!ptr) return [];
        const v = this.f32(ptr, 3 * stride * n);
        return Array.from({ length: n }, (_, k) => ({ in: v[3 * stride * k], value: v[3 * stride * k + stride], out: v[3 * stride * k + 2 * stride] }));
    }
    planarPoseAt(count, time, base) {
        if (this.x.ikw_planar_pose_at(time, base[0], base[1]) !== 0) return null;
        return this.planarXY(count);
    }

    // ---- the humanoid ----
    bodyInit(height) {
        this.check(this.x.ikw_body_init(height), 'humanoid');
        this.readBody();
        return this.body;
    }
    // The built-in figure's body (web/body_mesh.c): { positions (3 per vertex, model space at rest),
    // joints and weights (4 per vertex), indices (3 per triangle) }, or null for a file's figure.
    bodyMesh() {
        const v = this.x.ikw_body_mesh_build();
        if (v < 0) return null;
        const t = this.x.ikw_body_mesh_triangle_count();
        return {
            positions: Float32Array.from(this.f32(this.x.ikw_body_mesh_positions(), 3 * v)),
            joints: Uint16Array.from(this.i32(this.x.ikw_body_mesh_joints(), 4 * v)),
            weights: Float32Array.from(this.f32(this.x.ikw_body_mesh_weights(), 4 * v)),
            indices: Uint32Array.from(this.i32(this.x.ikw_body_mesh_indices(), 3 * t)),
        };
    }
    // A glTF file (its bytes) read and rigged by the library first (web/figure_file.c): null when
    // it is a humanoid, else { read: whether the reader took it, message: the library's words, as ikc's }.
    figureCheck(bytes) {
        const ptr = this.x.ikw_input_buffer(bytes.length);
        if (!ptr) return { read: false, message: 'the file is too large' };
        new Uint8Array(this.x.memory.buffer, ptr, bytes.length).set(bytes);
        const code = this.x.ikw_figure_check(bytes.length);
        return code === 0 ? null : { read: code === 2, message: this.message() };
    }
    // A BVH file (its bytes) as the figure, its motion played by bodyTime.
    // Returns null on success, else the reason.
    bodyLoadBvh(bytes) {
        const ptr = this.x.ikw_input_buffer(bytes.length);
        if (!ptr) return 'the file is too large';
        new Uint8Array(this.x.memory.buffer, ptr, bytes.length).set(bytes);
        const code = this.x.ikw_body_load_bvh(bytes.length);
        if (code !== 0) return this.message() || this.resultString(code);
        this.readBody();
        return null;
    }
    // The figure the library loaded: this.body { count, parents, names }.
    readBody() {
        const n = this.x.ikw_body_joint_count();
        this.body = {
            count: n,
            parents: Array.from(this.i32(this.x.ikw_body_parents(), n)),
            names: Array.from({ length: n }, (_, j) => this.string(this.x.ikw_body_joint_name(j))),
        };
    }
    // The glTF file figureCheck passed (`waiting` false: again the last one used, at rest) as the figure, its
    // skeleton the library's: null and this.body with each joint's glTF node (`nodes`, for the
    // drawing) and the file's animations ({ name, duration }), or the reason.
    figureUse(waiting = true) {
        const code = this.x.ikw_figure_use(waiting ? 1 : 0);
        if (code !== 0) return this.message() || this.resultString(code);
        this.readBody();
        this.body.nodes = Array.from({ length: this.body.count }, (_, j) => this.x.ikw_figure_joint_node(j));
        this.body.animations = Array.from({ length: this.x.ikw_figure_clip_count() },
            (_, i) => ({ name: this.string(this.x.ikw_figure_clip_name(i)), duration: this.x.ikw_figure_clip_duration(i) }));
        return null;
    }
    // The figure's file's animation `i` (the library's clip; -1: none) played; null or the reason.
    figurePlay(i) {
        const code = this.x.ikw_figure_play(i);
        return code === 0 ? null : this.message() || this.resultString(code);
    }
    // ---- a robot arm (web/robot_arm.c) ----
    // A URDF document (bytes) read by the library's reader: null and its
    // { name, links, joints, tips (link indices, best first) }, or the reader's
    // message (the old arm stays until robotUse loads a chain of the new one).
    robotRead(bytes) {
        const ptr = this.x.ikw_input_buffer(bytes.length);
        if (!ptr) return { error: 'the file is too large' };
        new Uint8Array(this.x.memory.buffer, ptr, bytes.length).set(bytes);
        const code = this.x.ikw_robot_read(bytes.length);
        if (code !== 0) return { error: this.message() || this.resultString(code) };
        return {
            robot: {
                name: this.string(this.x.ikw_robot_name()),
                links: Array.from({ length: this.x.ikw_robot_link_count() }, (_, l) => this.string(this.x.ikw_robot_link_name(l))),
                jointCount: this.x.ikw_robot_urdf_joint_count(),
                tips: Array.from({ length: this.x.ikw_robot_tip_count() }, (_, k) => this.x.ikw_robot_tip(k)),
            },
        };
    }
    // The chain from the root to link `tip` (ik_urdf_robot_chain) loaded: null and this.chain
    // ({ joints: [{ type, axis }], variables: [name] }), or the reason (the old arm stays).
    robotUse(tip) {
        const code = this.x.ikw_robot_use(tip);
        if (code !== 0) return this.message() || this.resultString(code);
        const n = this.x.ikw_robot_joint_count(), f = this.f32(this.x.ikw_robot_joints(), 4 * n);
        this.robotChain = {
            joints: Array.from({ length: n }, (_, k) => ({ type: f[4 * k], axis: [f[4 * k + 1], f[4 * k + 2], f[4 * k + 3]] })),
            variables: Array.from({ length: this.x.ikw_robot_variable_count() }, (_, v) => this.string(this.x.ikw_robot_variable_name(v))),
        };
        return null;
    }
    // { q, lower, upper, frames (7 per link, base first: x y z qx qy qz qw, base frame) }
    robotState() {
        const n = this.x.ikw_robot_variable_count(), links = this.x.ikw_robot_joint_count() + 1;
        return {
            q: Array.from(this.f32(this.x.ikw_robot_q(), n)),
            lower: Array.from(this.f32(this.x.ikw_robot_lower(), n)),
            upper: Array.from(this.f32(this.x.ikw_robot_upper(), n)),
            frames: Float32Array.from(this.f32(this.x.ikw_robot_frames(), 7 * links)),
        };
    }
    // A configuration (kept inside the limits by the C side).
    robotPose(q) {
        this.f32(this.x.ikw_robot_q(), q.length).set(q);
        this.check(this.x.ikw_robot_pose(), 'robot pose');
    }
    // The tool toward a goal pose (position [3], quaternion [4], base frame).
    robotSolve(position, rotation, orientation, { repeats = 1 } = {}) {
        const t0 = performance.now();
        const code = this.x.ikw_robot_solve(...position, ...rotation, orientation ? 1 : 0, repeats);
        const us = ((performance.now() - t0) * 1000) / repeats;
        this.check(code, 'robot solve');
        return {
            us,
            positionError: this.x.ikw_robot_position_error(),
            angleError: this.x.ikw_robot_angle_error(),
            iterations: this.x.ikw_robot_iterations(),
            reached: this.x.ikw_robot_reached() !== 0,
            ...this.robotState(),
            cell: this.robotCellState(),
        };
    }
    // ---- the robot's cell (web/robot_cell.c) ----
    // The cell on or off; its obstacles ([{ name, shape: 'box'|'sphere'|'cylinder', pose [7], size }]:
    // a box's three sizes, a sphere's [radius], a cylinder's [radius, length]), none when off.
    robotCell(on) {
        const count = this.x.ikw_robot_cell(on ? 1 : 0), f = this.f32(this.x.ikw_robot_cell_obstacles(), 11 * count);
        const shapes = ['box', 'sphere', 'cylinder'];
        return Array.from({ length: count }, (_, k) => {
            const o = f.subarray(11 * k, 11 * k + 11), shape = shapes[o[0]];
            return { name: this.string(this.x.ikw_robot_cell_obstacle_name(k)), shape, pose: Array.from(o.subarray(1, 8)),
                size: Array.from(o.subarray(8, 8 + (shape === 'box' ? 3 : shape === 'sphere' ? 1 : 2))) };
        });
    }
    // The check of the pose drawn: null when the cell is off, else { free, clearance (m), margin,
    // contacts (text), closest (the pair giving the clearance, text), candidates (pose IK solves of the last solve), capsules: [{ a, b, radius, contact }] }.
    robotCellState() {
        const free = this.x.ikw_robot_cell_free();
        if (free < 0) return null;
        const n = this.x.ikw_robot_cell_capsule_count(), f = this.f32(this.x.ikw_robot_cell_capsules(), 8 * n);
        return {
            free: free === 1,
            clearance: this.x.ikw_robot_cell_clearance(),
            margin: this.x.ikw_robot_cell_margin(),
            contactCount: this.x.ikw_robot_cell_contact_count(),
            contacts: this.string(this.x.ikw_robot_cell_contacts()),
            closest: this.string(this.x.ikw_robot_cell_closest()),
            candidates: this.x.ikw_robot_cell_candidates(),
            capsules: Array.from({ length: n }, (_, c) => ({
                a: Array.from(f.subarray(8 * c, 8 * c + 3)), b: Array.from(f.subarray(8 * c + 3, 8 * c + 6)),
                radius: f[8 * c + 6], contact: f[8 * c + 7] === 1,
            })),
        };
    }

    // A limb's solver (LIMB_METHODS index); null on success, else the reason.
    bodyLimbSolver(limb, method) {
        const code = this.x.ikw_body_limb_solver(limb, method);
        return code === 0 ? null : this.message() || this.resultString(code);
    }
    // Each limb's limits as drawn (LIMIT_FLOATS per limb, see ikw_body_limits).
    bodyLimits() { return Float32Array.from(this.f32(this.x.ikw_body_limits(), 4 * LIMIT_FLOATS)); }
    // The floor the clip's motion stands on (a point in the skeleton's root space), null when unknown.
    bodyClipFloor() {
        const p = Array.from(this.f32(this.x.ikw_body_clip_floor(), 3));
        return p.every(Number.isFinite) ? p : null;
    }
    // The joint a limb ends in (hand, foot), -1 for a virtual ankle.
    bodyLimbEnd(limb) { return this.x.ikw_body_limb_end(limb); }
    bodyTranslations() { return Float32Array.from(this.f32(this.x.ikw_body_translations(), 3 * this.body.count)); }
    bodyClipDuration() { return this.x.ikw_body_clip_duration(); }
    bodyTime(seconds) { this.x.ikw_body_time(seconds); }
    // The matrix above the roots (16 numbers, column-major as three.js's
    // Matrix4.elements), or null for none.
    bodyRoot(elements) {
        if (elements) this.f32(this.x.ikw_body_root_buffer(), 16).set(elements);
        this.x.ikw_body_root(elements ? 1 : 0);
    }
    bodyRotations() { return Float32Array.from(this.f32(this.x.ikw_body_rotations(), 4 * this.body.count)); }
    bodyPositions() { return Float32Array.from(this.f32(this.x.ikw_body_positions(), 3 * this.body.count)); }
    bodyGoal(limb, enabled, p) { this.check(this.x.ikw_body_goal(limb, enabled ? 1 : 0, p[0], p[1], p[2]), 'goal'); }
    // Full-body mode (web/body_full.c): the whole body follows the hands, feet and head, the feet
    // pinned, the centre of mass kept over them with `balance`; off: each limb alone.
    bodyFull(on, balance) {
        this.check(this.x.ikw_body_full(on ? 1 : 0, balance ? 1 : 0), 'full body');
        this.full = on;
    }
    bodyHeadGoal(enabled, p) { this.check(this.x.ikw_body_head_goal(enabled ? 1 : 0, p[0], p[1], p[2]), 'head goal'); }
    // The joint of a humanoid role (ROLES), -1 for none.
    bodyRoleJoint(role) { return this.x.ikw_body_role_joint(role); }
    // The last full-body solve's balance: { status (BALANCE), inside (the centre of mass's
    // distance inside the support, negative outside), iterations, centre [3], support [[3]],
    // summary (the library's words) }.
    bodyBalance() {
        const f = this.f32(this.x.ikw_body_balance(), 7 + 3 * MAX_SUPPORT);
        return {
            status: BALANCE[f[0]] ?? 'off',
            inside: f[1],
            iterations: f[2],
            centre: [f[3], f[4], f[5]],
            support: Array.from({ length: f[6] }, (_, k) => [f[7 + 3 * k], f[8 + 3 * k], f[9 + 3 * k]]),
            summary: this.string(this.x.ikw_body_full_summary()),
        };
    }
    // kind: 'none', 'slope' (amount in degrees) or 'stairs' (amount: step height).
    bodyGround(kind, amount) { this.check(this.x.ikw_body_ground(['none', 'slope', 'stairs'].indexOf(kind), amount), 'ground'); }
    bodySolve({ repeats = 1 } = {}) {
        const t0 = performance.now();
        const code = this.x.ikw_body_solve(repeats);
        const us = ((performance.now() - t0) * 1000) / repeats;
        this.check(code, 'humanoid solve');
        return {
            us,
            residuals: [0, 1, 2, 3].map((l) => this.x.ikw_body_residual(l)),
            grounded: [0, 1].map((l) => this.x.ikw_body_grounded(l)),
            pelvisOffset: this.x.ikw_body_pelvis_offset(),
            positions: this.bodyPositions(),
            rotations: this.bodyRotations(),
            translations: this.bodyTranslations(),
            ends: [0, 1, 2, 3].map((l) => Array.from(this.f32(this.x.ikw_body_limb_ends() + 12 * l, 3))),
            balance: this.full ? this.bodyBalance() : null,
        };
    }
}
