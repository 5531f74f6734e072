// scene3d.js: what the playground's 3D views share: a three.js renderer in a
// container, a camera that orbits (drag the background, wheel to zoom),
// objects that can be dragged with the mouse on the plane through them
// facing the camera, stick figures (joints and bones) drawn in one flat
// colour, and the projection of a point to page pixels (for the readouts the
// browser tests check screenshots against).
import * as THREE from 'three';

export { THREE };

// Whether WebGL here is drawn by a software rasteriser (SwiftShader,
// llvmpipe: machines without a GPU, headless browsers). Multisampling costs
// such a renderer most of its frame: on this project's machine the humanoid
// drags at 15-30 frames/s with it and 20-60 without. Asked once, of a small
// context that is given back at once.
let softwareGL = null;
function drawnInSoftware() {
    if (softwareGL !== null) return softwareGL;
    const gl = document.createElement('canvas').getContext('webgl2', { antialias: false });
    const info = gl && gl.getExtension('WEBGL_debug_renderer_info');
    const name = info ? String(gl.getParameter(info.UNMASKED_RENDERER_WEBGL)) : '';
    softwareGL = /swiftshader|llvmpipe|softpipe|software/i.test(name);
    gl?.getExtension('WEBGL_lose_context')?.loseContext();
    return softwareGL;
}

export class Scene3D {
    constructor(container, { center = [0, 0, 0], distance = 5, yaw = 0.9, pitch = 0.35 } = {}) {
        this.container = container;
        this.renderer = new THREE.WebGLRenderer({ antialias: !drawnInSoftware() });
        this.renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
        container.appendChild(this.renderer.domElement);
        this.scene = new THREE.Scene();
        this.scene.background = new THREE.Color(0x1d2230);
        this.scene.add(new THREE.HemisphereLight(0xffffff, 0x445566, 2.2));
        const sun = new THREE.DirectionalLight(0xffffff, 1.5);
        sun.position.set(3, 6, 4);
        this.scene.add(sun);
        this.camera = new THREE.PerspectiveCamera(45, 1, 0.01, 200);
        this.orbit = { center: new THREE.Vector3(...center), distance, yaw, pitch };
        this.draggables = [];
        this.raycaster = new THREE.Raycaster();
        this.drag = null;
        this.placeCamera();
        this.resize();
        new ResizeObserver(() => this.resize()).observe(container);
        const canvas = this.renderer.domElement;
        canvas.addEventListener('pointerdown', (e) => this.pointerDown(e));
        canvas.addEventListener('pointermove', (e) => this.pointerMove(e));
        canvas.addEventListener('pointerup', (e) => this.pointerUp(e));
        canvas.addEventListener('wheel', (e) => {
            e.preventDefault();
            this.orbit.distance = Math.min(60, Math.max(0.5, this.orbit.distance * Math.exp(e.deltaY * 0.001)));
            this.placeCamera();
        }, { passive: false });
    }

    resize() {
        const w = Math.max(1, this.container.clientWidth), h = Math.max(1, this.container.clientHeight);
        this.renderer.setSize(w, h);
        this.camera.aspect = w / h;
        this.camera.updateProjectionMatrix();
    }

    placeCamera() {
        const { center, distance, yaw, pitch } = this.orbit;
        this.camera.position.set(
            center.x + distance * Math.cos(pitch) * Math.sin(yaw),
            center.y + distance * Math.sin(pitch),
            center.z + distance * Math.cos(pitch) * Math.cos(yaw));
        this.camera.lookAt(center);
    }

    ndc(e) {
        const r = this.renderer.domElement.getBoundingClientRect();
        return new THREE.Vector2(((e.clientX - r.left) / r.width) * 2 - 1, -((e.clientY - r.top) / r.height) * 2 + 1);
    }

    // `mesh` can be dragged (while it is visible); onMove(position) is called with its new place (world space).
    addDraggable(mesh, onMove) { this.draggables.push({ mesh, onMove }); }

    pointerDown(e) {
        this.raycaster.setFromCamera(this.ndc(e), this.camera);
        const hits = this.raycaster.intersectObjects(this.draggables.filter((d) => d.mesh.visible).map((d) => d.mesh), false);
        this.renderer.domElement.setPointerCapture(e.pointerId);
        if (hits.length) {
            const d = this.draggables.find((x) => x.mesh === hits[0].object);
            const normal = this.camera.getWorldDirection(new THREE.Vector3());
            const center = d.mesh.getWorldPosition(new THREE.Vector3());
            const plane = new THREE.Plane().setFromNormalAndCoplanarPoint(normal, center);
            // Keep the grab point's offset from the object's centre while dragging.
            const offset = center.sub(hits[0].point);
            this.drag = { kind: 'object', d, plane, offset };
        } else {
            this.drag = { kind: 'orbit', x: e.clientX, y: e.clientY };
        }
    }

    pointerMove(e) {
        if (!this.drag) return;
        if (this.drag.kind === 'orbit') {
            this.orbit.yaw -= (e.clientX - this.drag.x) * 0.008;
            this.orbit.pitch = Math.min(1.45, Math.max(-1.45, this.orbit.pitch + (e.clientY - this.drag.y) * 0.008));
            this.drag.x = e.clientX;
            this.drag.y = e.clientY;
            this.placeCamera();
            return;
        }
        this.raycaster.setFromCamera(this.ndc(e), this.camera);
        const p = new THREE.Vector3();
        if (this.raycaster.ray.intersectPlane(this.drag.plane, p)) this.drag.d.onMove(p.add(this.drag.offset));
    }

    pointerUp(e) {
        this.drag = null;
        if (this.renderer.domElement.hasPointerCapture(e.pointerId)) this.renderer.domElement.releasePointerCapture(e.pointerId);
    }

    // Page (CSS pixel) coordinates of a model-space point.
    toPage(p) {
        const v = new THREE.Vector3(p[0], p[1], p[2]).project(this.camera);
        const r = this.renderer.domElement.getBoundingClientRect();
        return [r.left + ((v.x + 1) / 2) * r.width + window.scrollX, r.top + ((1 - v.y) / 2) * r.height + window.scrollY];
    }

    render() { this.renderer.render(this.scene, this.camera); }
}

// A stick figure: a sphere per joint and a cylinder per bone (joint to
// parent), in one unlit colour so its pixels are recognisable.
export class StickFigure {
    constructor(scene, parents, { color = 0xff8c1a, radius = 0.035 } = {}) {
        this.parents = parents;
        this.group = new THREE.Group();
        const material = new THREE.MeshBasicMaterial({ color });
        const ball = new THREE.SphereGeometry(radius * 1.4, 16, 12);
        const rod = new THREE.CylinderGeometry(radius, radius, 1, 10);
        rod.translate(0, 0.5, 0);
        const add = (mesh) => { this.group.add(mesh); return mesh; };
        this.joints = parents.map(() => add(new THREE.Mesh(ball, material)));
        this.bones = parents.map((p) => (p < 0 ? null : add(new THREE.Mesh(rod, material))));
        scene.add(this.group);
    }

    // positions: [x0, y0, z0, x1, ...] model space.
    update(positions) {
        const at = (j) => new THREE.Vector3(positions[3 * j], positions[3 * j + 1], positions[3 * j + 2]);
        const up = new THREE.Vector3(0, 1, 0);
        this.parents.forEach((p, j) => {
            const here = at(j);
            this.joints[j].position.copy(here);
            const bone = this.bones[j];
            if (!bone) return;
            const from = at(p), d = here.clone().sub(from), length = d.length();
            bone.visible = length > 1e-6;
            if (!bone.visible) return;
            bone.position.copy(from);
            bone.quaternion.setFromUnitVectors(up, d.divideScalar(length));
            bone.scale.set(1, length, 1);
        });
    }

    dispose(scene) { scene.remove(this.group); }
}

// A target the user drags: a small cube (seed 002's spinning cube).
export function targetCube(scene, color = 0x3ad17a, size = 0.16) {
    const mesh = new THREE.Mesh(new THREE.BoxGeometry(size, size, size), new THREE.MeshLambertMaterial({ color }));
    scene.add(mesh);
    return mesh;
}

export function formatVec(v) { return Array.from(v, (x) => x.toFixed(4)).join(' '); }
