// limits_view.js: the humanoid's joint limits drawn in three.js from the
// numbers web/body_limbs.c hands out (ikw_body_limits, LIMIT_FLOATS per
// limb): at each elbow and knee a ring sector in the plane of its hinge,
// spanning the bend's range (the lower bone at bend t points along the upper
// bone's direction turned by t about the hinge); at each shoulder and hip
// solved by a chain solver, the cone its upper bone must stay inside (a
// spherical cap about the cone's axis, wireframe).
import { THREE } from './scene3d.js';
import { LIMIT_FLOATS } from './ikit.js';

export const ARC_COLOR = [0xff, 0xd2, 0x3a];
const ARC_HEX = (ARC_COLOR[0] << 16) | (ARC_COLOR[1] << 8) | ARC_COLOR[2];

export class LimitsView {
    constructor(scene) {
        this.group = new THREE.Group();
        this.group.visible = false;
        scene.add(this.group);
        this.arcs = [];
        this.cones = [];
        this.arcMaterial = new THREE.MeshBasicMaterial({ color: ARC_HEX, side: THREE.DoubleSide });
        this.coneMaterial = new THREE.MeshBasicMaterial({ color: 0x4ad9ff, wireframe: true });
        this.shape = null;
    }

    // Limits of a new figure: the sectors' and cones' shapes from its ranges and lengths.
    rebuild(limits) {
        this.group.clear();
        this.arcs = [0, 1, 2, 3].map((l) => {
            const f = limits.subarray(LIMIT_FLOATS * l, LIMIT_FLOATS * (l + 1));
            const r = 0.45 * f[11];
            const mesh = new THREE.Mesh(new THREE.RingGeometry(0.6 * r, r, 24, 1, f[9], f[10] - f[9]), this.arcMaterial);
            mesh.userData = { r, min: f[9], max: f[10] };
            this.group.add(mesh);
            return mesh;
        });
        this.cones = [0, 1, 2, 3].map((l) => {
            const f = limits.subarray(LIMIT_FLOATS * l, LIMIT_FLOATS * (l + 1));
            const mesh = new THREE.Mesh(new THREE.SphereGeometry(0.35 * f[11], 16, 8, 0, 2 * Math.PI, 0, f[18]), this.coneMaterial);
            this.group.add(mesh);
            return mesh;
        });
    }

    // Places everything at the solved pose; returns each arc's middle (model
    // space: halfway through its range, between the ring's radii) for the tests.
    update(limits) {
        const middles = [];
        const y = new THREE.Vector3(0, 1, 0);
        this.arcs.forEach((arc, l) => {
            const f = limits.subarray(LIMIT_FLOATS * l, LIMIT_FLOATS * (l + 1));
            const mid = new THREE.Vector3(f[0], f[1], f[2]), hinge = new THREE.Vector3(f[3], f[4], f[5]);
            const upper = new THREE.Vector3(f[6], f[7], f[8]);
            // The ring's plane: x along the upper bone, z the hinge, y = hinge x upper (a bend of t
            // turns x toward y, as CircleGeometry's angles run).
            const side = hinge.clone().cross(upper);
            arc.position.copy(mid);
            arc.quaternion.setFromRotationMatrix(new THREE.Matrix4().makeBasis(upper, side, hinge));
            const t = (arc.userData.min + arc.userData.max) / 2, r = 0.8 * arc.userData.r;
            middles.push(mid.clone().addScaledVector(upper, r * Math.cos(t)).addScaledVector(side, r * Math.sin(t)).toArray());
            const cone = this.cones[l];
            cone.visible = f[19] !== 0;
            cone.position.set(f[12], f[13], f[14]);
            cone.quaternion.setFromUnitVectors(y, new THREE.Vector3(f[15], f[16], f[17]));
        });
        return middles;
    }
}
