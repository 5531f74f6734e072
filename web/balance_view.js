// balance_view.js: the full body's balance drawn in three.js from the
// library's report (ikw_body_balance, web/body_full.c): the centre of mass
// (a white ball), its plumb line down to the support's plane and the point
// where it meets it (a ring), and the support polygon of the pinned feet
// (filled, green while the centre of mass is over it, red when the pose
// cannot be balanced). Drawn over the ground and the body, so the polygon
// under the feet and the ball inside the trunk stay in sight.
import { THREE } from './scene3d.js';

export const SUPPORT_KEPT = [0x3a, 0xd1, 0x7a];
export const SUPPORT_LOST = [0xff, 0x4d, 0x6d];
const hex = (c) => (c[0] << 16) | (c[1] << 8) | c[2];
const MAX_CORNERS = 8; // IK_FULL_BODY_MAX_SUPPORT

// Over everything else, in this order.
function onTop(object, order) {
    object.renderOrder = order;
    object.material.depthTest = false;
    object.material.transparent = true;
    object.frustumCulled = false; // its geometry changes every frame
    return object;
}

export class BalanceView {
    constructor(scene) {
        this.group = new THREE.Group();
        this.group.visible = false;
        scene.add(this.group);
        const fill = new THREE.BufferGeometry();
        fill.setAttribute('position', new THREE.BufferAttribute(new Float32Array(3 * MAX_CORNERS), 3));
        // A fan from the first corner (the polygon is convex).
        fill.setIndex(Array.from({ length: MAX_CORNERS - 2 }, (_, k) => [0, k + 1, k + 2]).flat());
        this.fill = onTop(new THREE.Mesh(fill, new THREE.MeshBasicMaterial({ color: hex(SUPPORT_KEPT), opacity: 0.45, side: THREE.DoubleSide })), 3);
        const outline = new THREE.BufferGeometry();
        outline.setAttribute('position', new THREE.BufferAttribute(new Float32Array(3 * MAX_CORNERS), 3));
        this.outline = onTop(new THREE.LineLoop(outline, new THREE.LineBasicMaterial({ color: hex(SUPPORT_KEPT) })), 4);
        const line = new THREE.BufferGeometry();
        line.setAttribute('position', new THREE.BufferAttribute(new Float32Array(6), 3));
        this.plumb = onTop(new THREE.Line(line, new THREE.LineBasicMaterial({ color: 0xffffff, opacity: 0.8 })), 5);
        this.ball = onTop(new THREE.Mesh(new THREE.SphereGeometry(0.04, 18, 12), new THREE.MeshBasicMaterial({ color: 0xffffff })), 6);
        this.ring = onTop(new THREE.Mesh(new THREE.RingGeometry(0.03, 0.05, 24).rotateX(-Math.PI / 2),
            new THREE.MeshBasicMaterial({ color: 0xffffff, side: THREE.DoubleSide })), 6);
        this.group.add(this.fill, this.outline, this.plumb, this.ball, this.ring);
    }

    // The report of the last solve (Ikit.bodyBalance()); returns the point under the centre of
    // mass on the support's plane (null without support).
    update(balance) {
        const { centre, support, status } = balance;
        this.ball.position.fromArray(centre);
        const n = Math.min(support.length, MAX_CORNERS);
        const fill = this.fill.geometry.attributes.position, outline = this.outline.geometry.attributes.position;
        support.slice(0, n).forEach((p, k) => { fill.setXYZ(k, ...p); outline.setXYZ(k, ...p); });
        fill.needsUpdate = outline.needsUpdate = true;
        this.fill.geometry.setDrawRange(0, 3 * Math.max(0, n - 2));
        this.outline.geometry.setDrawRange(0, n);
        const color = hex(status === 'lost' ? SUPPORT_LOST : SUPPORT_KEPT);
        this.fill.material.color.setHex(color);
        this.outline.material.color.setHex(color);
        this.fill.visible = this.outline.visible = n >= 3;
        // The plumb line meets the corners' plane (its normal by Newell's method) straight below.
        let under = null;
        if (n >= 3) {
            const normal = [0, 0, 0];
            support.slice(0, n).forEach((a, k) => {
                const b = support[(k + 1) % n];
                normal[0] += (a[1] - b[1]) * (a[2] + b[2]);
                normal[1] += (a[2] - b[2]) * (a[0] + b[0]);
                normal[2] += (a[0] - b[0]) * (a[1] + b[1]);
            });
            const o = support[0];
            if (Math.abs(normal[1]) > 1e-9) {
                under = [centre[0], o[1] - (normal[0] * (centre[0] - o[0]) + normal[2] * (centre[2] - o[2])) / normal[1], centre[2]];
            }
        }
        this.plumb.visible = this.ring.visible = under !== null;
        if (under) {
            const line = this.plumb.geometry.attributes.position;
            line.setXYZ(0, ...centre);
            line.setXYZ(1, ...under);
            line.needsUpdate = true;
            this.ring.position.fromArray(under);
        }
        return under;
    }
}
