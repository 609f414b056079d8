// Draws the offline app's icons: a magnifying glass over a notepad's grid,
// in the page's header colours. Writes icon.svg and the PNGs the manifest
// names (icon-192.png, icon-512.png, and icon-maskable-512.png with the
// drawing inside the safe circle). Run once after a change to the drawing:
//   node crates/sleuth-wasm/app/icons.mjs
// (the PNGs are committed; build.sh copies them).
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const BG = [0x22, 0x2a, 0x3a];
const GRID = [0x5b, 0x6a, 0x88];
const GLASS = [0xff, 0xff, 0xff];
const LENS = [0x1e, 0x5a, 0xc8];

// The drawing on a 512 square; `k` scales it about the centre (the maskable icon's safe zone).
function shapes(k) {
  const s = (v) => 256 + (v - 256) * k;
  return {
    grid: [0, 1, 2, 3, 4, 5].map((i) => s(96 + i * 64)),
    lens: { x: s(222), y: s(222), r: 104 * k, w: 34 * k },
    handle: { x1: s(300), y1: s(300), x2: s(410), y2: s(410), w: 52 * k },
    corner: 96,
  };
}

function svg() {
  const d = shapes(1);
  const [lo, hi] = [d.grid[0], d.grid[5]];
  const lines = d.grid.map((v) => `<path d="M${v} ${lo}V${hi}M${lo} ${v}H${hi}"/>`).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">
<rect width="512" height="512" rx="${d.corner}" fill="rgb(${BG})"/>
<g stroke="rgb(${GRID})" stroke-width="10">${lines}</g>
<circle cx="${d.lens.x}" cy="${d.lens.y}" r="${d.lens.r}" fill="rgb(${LENS})" fill-opacity=".35" stroke="rgb(${GLASS})" stroke-width="${d.lens.w}"/>
<path d="M${d.handle.x1} ${d.handle.y1}L${d.handle.x2} ${d.handle.y2}" stroke="rgb(${GLASS})" stroke-width="${d.handle.w}" stroke-linecap="round"/>
</svg>
`;
}

const dist = (x, y, x1, y1, x2, y2) => {
  const [dx, dy] = [x2 - x1, y2 - y1];
  const t = Math.max(0, Math.min(1, ((x - x1) * dx + (y - y1) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(x - x1 - t * dx, y - y1 - t * dy);
};

/** The colour at (x, y) of the 512 drawing, or null outside it. */
function colour(x, y, d, rounded) {
  if (rounded) {
    const c = d.corner;
    const cx = Math.min(Math.max(x, c), 512 - c);
    const cy = Math.min(Math.max(y, c), 512 - c);
    if (Math.hypot(x - cx, y - cy) > c) return null;
  }
  if (dist(x, y, d.handle.x1, d.handle.y1, d.handle.x2, d.handle.y2) <= d.handle.w / 2) return GLASS;
  const r = Math.hypot(x - d.lens.x, y - d.lens.y);
  if (Math.abs(r - d.lens.r) <= d.lens.w / 2) return GLASS;
  const [lo, hi] = [d.grid[0] - 5, d.grid[5] + 5];
  const inGrid = x >= lo && x <= hi && y >= lo && y <= hi;
  const onLine = d.grid.some((v) => Math.abs(x - v) <= 5 || Math.abs(y - v) <= 5);
  const base = inGrid && onLine ? GRID : BG;
  if (r < d.lens.r) return base.map((v, i) => Math.round(v * 0.65 + LENS[i] * 0.35));
  return base;
}

function png(size, k, rounded) {
  const d = shapes(k);
  const n = 4; // samples per pixel and axis
  const rows = [];
  for (let py = 0; py < size; py++) {
    const row = Buffer.alloc(1 + size * 4);
    for (let px = 0; px < size; px++) {
      const sum = [0, 0, 0, 0];
      for (let sy = 0; sy < n; sy++) {
        for (let sx = 0; sx < n; sx++) {
          const c = colour(((px + (sx + 0.5) / n) * 512) / size, ((py + (sy + 0.5) / n) * 512) / size, d, rounded);
          if (c) { sum[0] += c[0]; sum[1] += c[1]; sum[2] += c[2]; sum[3] += 1; }
        }
      }
      const o = 1 + px * 4;
      if (sum[3]) for (let i = 0; i < 3; i++) row[o + i] = Math.round(sum[i] / sum[3]);
      row[o + 3] = Math.round((255 * sum[3]) / (n * n));
    }
    rows.push(row);
  }
  const chunk = (type, data) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr), chunk('IDAT', deflateSync(Buffer.concat(rows), { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}

function crc32(buf) {
  let c = ~0;
  for (const b of buf) {
    c ^= b;
    for (let i = 0; i < 8; i++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

const here = new URL('.', import.meta.url);
writeFileSync(new URL('icon.svg', here), svg());
writeFileSync(new URL('icon-192.png', here), png(192, 1, true));
writeFileSync(new URL('icon-512.png', here), png(512, 1, true));
// Maskable: the whole square filled, the drawing within the central 80% circle.
writeFileSync(new URL('icon-maskable-512.png', here), png(512, 0.72, false));
