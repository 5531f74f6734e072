// state.js: the scene state in the URL's hash (#tab=tail&cube=0.8,0.6,-2.2&...),
// so a link reproduces what someone saw. Each view reads its keys when it
// starts and writes them as they change; writes are gathered and applied at
// most every 200 ms (history.replaceState, so Back is not flooded).
const params = new URLSearchParams(location.hash.slice(1));
let pending = null;

export function getString(key, fallback) { return params.has(key) ? params.get(key) : fallback; }

export function getNumber(key, fallback, min = -Infinity, max = Infinity) {
    const v = Number(params.get(key));
    return params.has(key) && Number.isFinite(v) ? Math.min(max, Math.max(min, v)) : fallback;
}

// A list of `count` finite numbers, else the fallback.
export function getNumbers(key, fallback, count) {
    if (!params.has(key)) return fallback;
    const v = params.get(key).split(',').map(Number);
    return (count === undefined || v.length === count) && v.every(Number.isFinite) ? v : fallback;
}

// A list written by setFloats, as the 32-bit floats it was written from.
export function getFloats(key, fallback, count) {
    const v = getNumbers(key, null, count);
    return v ? v.map(Math.fround) : fallback;
}

// The shortest text that reads back as the same 32-bit float (what wasm holds), so a
// link carries a value exactly: a restored page shows the same numbers as the one linked.
export function exactFloat(x) {
    if (!Number.isFinite(x)) return String(x);
    let digits = 1; // 9 significant digits always suffice for a 32-bit float
    while (Math.fround(Number(x.toPrecision(digits))) !== Math.fround(x)) ++digits;
    return String(Number(x.toPrecision(digits)));
}

// Numbers kept exactly as 32-bit floats (exactFloat), comma separated.
export function setFloats(key, values) { setText(key, Array.from(values, exactFloat).join(',')); }

export function remove(key) {
    if (!params.has(key)) return;
    params.delete(key);
    schedule();
}

export function set(key, value) {
    setText(key, Array.isArray(value) || ArrayBuffer.isView(value)
        ? Array.from(value, (x) => +x.toFixed(4)).join(',') : String(value));
}

function setText(key, text) {
    if (params.get(key) === text) return;
    params.set(key, text);
    schedule();
}

function schedule() {
    if (pending === null) {
        pending = setTimeout(() => {
            pending = null;
            history.replaceState(null, '', `#${params.toString()}`);
        }, 200);
    }
}
