// figure_file.js: the drawing of a character from a glTF/GLB file for the
// humanoid view. The library reads the file in wasm (web/figure_file.c: its
// skeleton, rest pose and animations, the words ikc prints for a bad file);
// three.js's GLTFLoader reads it again only to draw its skinned meshes. Each
// joint of the library's skeleton is drawn by the object of its glTF node;
// the matrix of the object above the root joints is root_ms, so the rig
// layer solves in the scene's space and the solved local transforms go
// straight back onto those objects.
import { THREE } from './scene3d.js';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';

// Parses `bytes` (ArrayBuffer) of a .glb or a self-contained .gltf; rejects
// with a readable message for anything else.
export function parseGltf(bytes) {
    return new Promise((resolve, reject) => {
        try {
            new GLTFLoader().parse(bytes, '', resolve, (err) => reject(new Error(err?.message ?? String(err))));
        } catch (err) {
            reject(new Error(err.message));
        }
    });
}

// The three.js objects that draw the library's skeleton (GLTFLoader's result
// and the glTF node of each joint, from Ikit.figureUse): { bones (in the
// library's joint order, the solved pose goes onto them), rootParent (the
// object above the root joints, whose matrix is the skeleton's root) }.
export function bonesOf(gltf, nodes) {
    const byNode = new Map();
    gltf.scene.traverse((o) => {
        const node = gltf.parser?.associations?.get(o)?.nodes;
        if (node !== undefined && !byNode.has(node)) byNode.set(node, o);
    });
    const bones = nodes.map((n) => byNode.get(n));
    if (bones.some((b) => !b)) throw new Error('a joint of the skeleton is not in the drawn scene');
    const set = new Set(bones);
    const roots = bones.filter((b) => !set.has(b.parent));
    const rootParent = roots[0].parent;
    if (roots.some((r) => r.parent !== rootParent)) throw new Error('the skeleton has roots under different nodes');
    return { bones, rootParent };
}

// Moves and scales `scene` so the figure stands on y = 0, centred, about
// `height` tall (files come in centimetres, metres or anything).
export function standOnGround(scene, height) {
    scene.updateMatrixWorld(true);
    const box = new THREE.Box3().setFromObject(scene);
    const size = box.getSize(new THREE.Vector3());
    if (!(size.y > 0) || !Number.isFinite(size.y)) throw new Error('the figure has no height');
    const k = height / size.y;
    scene.scale.multiplyScalar(k);
    const center = box.getCenter(new THREE.Vector3());
    scene.position.set(-center.x * k, -box.min.y * k, -center.z * k);
    scene.updateMatrixWorld(true);
}
