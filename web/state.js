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

export function set(key, value) {
    params.set(key, Array.isArray(value) || ArrayBuffer.isView(value)
        ? Array.from(value, (x) => +x.toFixed(4)).join(',') : String(value));
    if (pending === null) {
        pending = setTimeout(() => {
            pending = null;
            history.replaceState(null, '', `#${params.toString()}`);
        }, 200);
    }
}
