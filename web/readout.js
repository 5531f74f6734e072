// readout.js: the numbers each view shows, written into DOM elements (the
// browser tests read the same elements), and a running median of solve times.
export function show(id, text, data) {
    const el = document.getElementById(id);
    if (!el) return;
    el.textContent = text;
    if (data) for (const [k, v] of Object.entries(data)) el.dataset[k] = String(v);
}

// Shows a message in a view's message box ('' hides it); `error` marks a failure.
export function message(id, text, error = true) {
    const el = document.getElementById(id);
    el.textContent = text;
    el.hidden = !text;
    el.classList.toggle('error', error);
}

// Median of the last `size` samples (one solve time per frame).
export class RunningMedian {
    constructor(size = 31) { this.size = size; this.values = []; }
    add(v) {
        this.values.push(v);
        if (this.values.length > this.size) this.values.shift();
        const s = [...this.values].sort((a, b) => a - b);
        return s[s.length >> 1];
    }
}
