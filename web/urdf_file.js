// urdf_file.js: a URDF robot description read with the browser's own XML
// parser (DOMParser; ikit's native reader uses libxml2, which is not built
// for wasm), checked by the rules of include/ikit/urdf.h (one tree of links,
// known joint types, finite numbers, a limit on revolute and prismatic
// joints, mimic joints that exist and do not loop), and turned into the
// plain numbers web/robot_arm.c takes for the chain from the root link to a
// tip link. Errors are thrown as Error with a message naming the element.

const TYPES = { fixed: 0, revolute: 1, continuous: 2, prismatic: 3 };
export const FIELDS = 16; // IKW_ROBOT_FIELDS in web/ikit_web.h

// `count` numbers from an attribute (`fallback` when it is absent).
function numbers(element, attribute, count, fallback, owner) {
    const text = element?.getAttribute(attribute);
    if (text === null || text === undefined) return fallback;
    const v = text.trim().split(/\s+/).map(Number);
    if (v.length !== count || !v.every(Number.isFinite)) {
        throw new Error(`${owner}: ${attribute}="${text}" is not ${count} finite number${count > 1 ? 's' : ''}`);
    }
    return v;
}

function child(element, name) {
    for (const c of element.children) if (c.localName === name) return c;
    return null;
}

// { name, links: [name], joints: [...], root, parentJoint: Map(link -> joint index) }
export function parseUrdf(text) {
    const doc = new DOMParser().parseFromString(text, 'application/xml');
    const failure = doc.querySelector('parsererror');
    if (failure) {
        // Chromium and Firefox put the parser's own words (with line and column) in the element's first <div> or its text.
        const detail = (failure.querySelector('div') ?? failure).textContent.replace(/\s+/g, ' ').trim();
        throw new Error(`not well-formed XML: ${detail.slice(0, 200)}`);
    }
    if (doc.doctype) throw new Error('a DOCTYPE is not accepted (as the native reader refuses it)');
    const robot = doc.documentElement;
    if (robot.localName !== 'robot') throw new Error(`the root element is <${robot.localName}>, not <robot>`);
    const links = [], linkIndex = new Map();
    for (const e of robot.children) {
        if (e.localName !== 'link') continue;
        const name = e.getAttribute('name');
        if (!name) throw new Error('a <link> has no name');
        if (linkIndex.has(name)) throw new Error(`two links are called '${name}'`);
        linkIndex.set(name, links.length);
        links.push(name);
    }
    const joints = [], jointIndex = new Map();
    for (const e of robot.children) {
        if (e.localName !== 'joint') continue;
        const name = e.getAttribute('name');
        if (!name) throw new Error('a <joint> has no name');
        const owner = `<joint name="${name}">`;
        if (jointIndex.has(name)) throw new Error(`two joints are called '${name}'`);
        const typeName = e.getAttribute('type');
        if (typeName === 'floating' || typeName === 'planar') throw new Error(`${owner}: ${typeName} joints are not supported`);
        if (!(typeName in TYPES)) throw new Error(`${owner}: unknown type "${typeName}"`);
        const linkOf = (tag) => {
            const link = child(e, tag)?.getAttribute('link');
            if (!link) throw new Error(`${owner}: no <${tag} link>`);
            if (!linkIndex.has(link)) throw new Error(`${owner}: no link '${link}'`);
            return linkIndex.get(link);
        };
        const origin = child(e, 'origin');
        const axis = numbers(child(e, 'axis'), 'xyz', 3, [1, 0, 0], `${owner} <axis>`);
        if (axis.every((v) => v === 0)) throw new Error(`${owner}: the axis is zero`);
        const limitElement = child(e, 'limit');
        const limit = limitElement && {
            lower: numbers(limitElement, 'lower', 1, [0], `${owner} <limit>`)[0],
            upper: numbers(limitElement, 'upper', 1, [0], `${owner} <limit>`)[0],
        };
        if ((typeName === 'revolute' || typeName === 'prismatic') && !limit) throw new Error(`${owner}: a ${typeName} joint needs a <limit>`);
        if (limit && limit.lower > limit.upper) throw new Error(`${owner}: lower limit ${limit.lower} above upper ${limit.upper}`);
        const mimicElement = child(e, 'mimic');
        const mimic = mimicElement && {
            joint: mimicElement.getAttribute('joint'),
            multiplier: numbers(mimicElement, 'multiplier', 1, [1], `${owner} <mimic>`)[0],
            offset: numbers(mimicElement, 'offset', 1, [0], `${owner} <mimic>`)[0],
        };
        jointIndex.set(name, joints.length);
        joints.push({
            name, type: TYPES[typeName], typeName, parent: linkOf('parent'), child: linkOf('child'),
            xyz: numbers(origin, 'xyz', 3, [0, 0, 0], `${owner} <origin>`),
            rpy: numbers(origin, 'rpy', 3, [0, 0, 0], `${owner} <origin>`),
            axis, limit, mimic,
        });
    }
    // One tree: each link the child of at most one joint, one root, no loops.
    const parentJoint = new Map();
    joints.forEach((j, k) => {
        if (parentJoint.has(j.child)) throw new Error(`link '${links[j.child]}' is the child of two joints`);
        parentJoint.set(j.child, k);
    });
    const roots = links.map((_, l) => l).filter((l) => !parentJoint.has(l));
    if (links.length === 0) throw new Error('the robot has no links');
    if (roots.length !== 1) throw new Error(roots.length ? `the robot has ${roots.length} root links (${roots.slice(0, 3).map((l) => links[l]).join(', ')}…)` : 'the joints form a loop');
    for (const j of joints) {
        if (!j.mimic) continue;
        if (!jointIndex.has(j.mimic.joint)) throw new Error(`<joint name="${j.name}">: mimics a missing joint '${j.mimic.joint}'`);
        j.mimic.index = jointIndex.get(j.mimic.joint);
    }
    const robotObject = { name: robot.getAttribute('name') ?? '', links, joints, root: roots[0], parentJoint };
    for (let l = 0; l < links.length; ++l) pathTo(robotObject, l); // throws on a loop
    joints.forEach((_, k) => leaderOf(robotObject, k)); // throws on a mimic loop
    return robotObject;
}

// The joint indices from the root link down to link `tip`, root first.
export function pathTo(robot, tip) {
    const path = [];
    for (let link = tip; robot.parentJoint.has(link); link = robot.joints[path[0]].parent) {
        path.unshift(robot.parentJoint.get(link));
        if (path.length > robot.joints.length) throw new Error('the joints form a loop');
    }
    return path;
}

// The joint a mimic joint finally follows, with the composed
// value = multiplier * leader + offset (as ik_urdf_robot_chain's mimic_leader).
export function leaderOf(robot, k) {
    let multiplier = 1, offset = 0, joint = k, steps = 0;
    while (robot.joints[joint].mimic) {
        const m = robot.joints[joint].mimic;
        offset = m.multiplier * offset + m.offset;
        multiplier *= m.multiplier;
        joint = m.index;
        if (++steps > robot.joints.length) throw new Error(`<joint name="${robot.joints[k].name}">: its mimic joints loop`);
    }
    return { joint, multiplier, offset };
}

// The links a chain can end at, best first: leaves ordered by the rotating
// joints above them (most first), then the fewest prismatic ones (a hand's
// tool point before its fingers), then document order.
export function tipCandidates(robot) {
    const isLeaf = (l) => !robot.joints.some((j) => j.parent === l);
    const score = (l) => {
        const types = pathTo(robot, l).map((k) => robot.joints[k].type);
        return [types.filter((t) => t === 1 || t === 2).length, -types.filter((t) => t === 3).length];
    };
    return robot.links.map((_, l) => l).filter(isLeaf).filter((l) => pathTo(robot, l).length > 0)
        .map((l) => ({ l, s: score(l) }))
        .sort((a, b) => b.s[0] - a.s[0] || b.s[1] - a.s[1] || a.l - b.l)
        .map((x) => x.l);
}

// The chain from the root to `tip` as web/robot_arm.c takes it: { joints
// (indices), fields (Float64Array, FIELDS per joint), variables: [{ name,
// joint }] (one per distinct leader, in chain order, as the C side numbers them) }.
export function chainFields(robot, tip) {
    const path = pathTo(robot, tip);
    const fields = new Float64Array(FIELDS * path.length);
    const variables = [];
    path.forEach((k, i) => {
        const j = robot.joints[k];
        const { joint: leader, multiplier, offset } = leaderOf(robot, k);
        fields.set([j.type, ...j.xyz, ...j.rpy, ...j.axis, j.limit ? 1 : 0, j.limit?.lower ?? 0, j.limit?.upper ?? 0,
            leader, multiplier, offset], FIELDS * i);
        if (j.type !== 0 && !variables.some((v) => v.leader === leader)) variables.push({ name: robot.joints[leader].name, leader });
    });
    return { joints: path, fields, variables };
}
