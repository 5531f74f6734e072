// figure_file.js: a character from a glTF/GLB file for the humanoid view.
// three.js's GLTFLoader reads the file and draws its skinned meshes; the
// skeleton (the bones of the skinned mesh with the most bones) goes to
// wasm, parents first, with its rest transforms as the file gives them and
// the matrix of the node above its root bones as root_ms, so the rig layer
// solves in the scene's space and the solved local rotations go straight
// back onto the bones.
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

// The skeleton of a loaded glTF (GLTFLoader's result), for Ikit.bodyLoad:
// { names, parents, rest, bones (the three.js bones in that order),
// rootParent }. Names are the file's own: three.js changes node names
// ("Foot.L" becomes "FootL"), and the rig finds joints by name.
export function skeletonOf(gltf) {
    const scene = gltf.scene;
    const fileName = (o) => {
        const node = gltf.parser?.associations?.get(o)?.nodes;
        return node !== undefined ? gltf.parser.json.nodes[node]?.name ?? o.name : o.name;
    };
    let best = null;
    scene.traverse((o) => {
        if (o.isSkinnedMesh && (!best || o.skeleton.bones.length > best.bones.length)) best = o.skeleton;
    });
    if (!best) throw new Error('the file has no skinned mesh (no skeleton to rig)');
    const set = new Set(best.bones);
    // The bone tree may hold nodes the skin does not list (end sites); take every Bone under the roots.
    const roots = best.bones.filter((b) => !(b.parent && set.has(b.parent)));
    const rootParent = roots[0].parent;
    if (roots.some((r) => r.parent !== rootParent)) throw new Error('the skeleton has roots under different nodes');
    const bones = [];
    const visit = (b) => {
        bones.push(b);
        for (const c of b.children) if (c.isBone) visit(c);
    };
    roots.forEach(visit);
    const index = new Map(bones.map((b, i) => [b, i]));
    const seen = new Map();
    const names = bones.map((b, i) => {
        const base = fileName(b) || `joint${i}`;
        const k = seen.get(base) ?? 0;
        seen.set(base, k + 1);
        return k ? `${base}.${k}` : base;
    });
    return {
        bones,
        rootParent,
        names,
        parents: bones.map((b) => (index.has(b.parent) ? index.get(b.parent) : -1)),
        rest: bones.flatMap((b) => [...b.position.toArray(), ...b.quaternion.toArray(), ...b.scale.toArray()]),
    };
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

// A glTF animation (three.js AnimationClip from GLTFLoader) as tracks for
// Ikit.bodyLoadTracks: the tracks that drive the skeleton's bones (others:
// morph weights, nodes outside the skeleton, are left out), each with its
// joint index, path (0 translation, 1 rotation, 2 scale), interpolation
// (0 LINEAR, 1 STEP, 2 CUBICSPLINE, as ik_interpolation), times and values
// as the file holds them (GLTFLoader keeps a CUBICSPLINE track's tangents).
export function tracksOf(clip, bones) {
    const index = new Map();
    bones.forEach((b, j) => { index.set(b.name, j); index.set(b.uuid, j); });
    const paths = { position: 0, quaternion: 1, scale: 2 };
    const tracks = [];
    for (const track of clip.tracks) {
        const dot = track.name.lastIndexOf('.');
        const joint = index.get(track.name.slice(0, dot)), path = paths[track.name.slice(dot + 1)];
        if (joint === undefined || path === undefined) continue;
        const cubic = track.createInterpolant?.isInterpolantFactoryMethodGLTFCubicSpline === true;
        const interpolation = cubic ? 2 : track.getInterpolation() === THREE.InterpolateDiscrete ? 1 : 0;
        tracks.push({ joint, path, interpolation, times: track.times, values: track.values });
    }
    return tracks;
}
