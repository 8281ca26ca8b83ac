/**
 * src/report — the static HTML report (`tslc report`): one self-contained file, no server, no
 * network, no scripts from elsewhere.
 *
 * This file lays a controller `Diagram` out as inline SVG: states in layers by distance from the
 * initial state, straight edges between layers, loops drawn above their state. Simple on purpose:
 * no layout engine is available offline, and controllers worth reading have few states.
 */
import { type Diagram, edgeLabel } from '../explain/diagram.js';
import { escapeHtml } from './escape.js';

const LAYER_GAP = 260;
const ROW_GAP = 120;
const RADIUS = 22;
const MAX_LABEL = 48;

export function diagramSvg(d: Diagram): string {
  // Layers: BFS distance from the initial state; unreachable states go last.
  const layer = new Array<number>(d.stateCount).fill(-1);
  layer[d.initial] = 0;
  const queue = [d.initial];
  while (queue.length > 0) {
    const s = queue.shift()!;
    for (const e of d.edges)
      if (e.from === s && layer[e.to] < 0) {
        layer[e.to] = layer[s] + 1;
        queue.push(e.to);
      }
  }
  const maxLayer = Math.max(0, ...layer);
  for (let s = 0; s < d.stateCount; s++) if (layer[s] < 0) layer[s] = maxLayer + 1;
  const rows = new Map<number, number[]>();
  for (let s = 0; s < d.stateCount; s++) rows.set(layer[s], [...(rows.get(layer[s]) ?? []), s]);
  const pos = new Array<{ x: number; y: number }>(d.stateCount);
  for (const [l, states] of rows) states.forEach((s, i) => (pos[s] = { x: 80 + l * LAYER_GAP, y: 70 + i * ROW_GAP + (l % 2) * 30 }));
  const width = 160 + Math.max(...[...rows.keys()]) * LAYER_GAP + 200;
  const height = 140 + Math.max(...[...rows.values()].map((r) => r.length)) * ROW_GAP;

  const parts: string[] = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" class="diagram" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="controller diagram">`,
    '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#555"/></marker></defs>',
  );
  const start = pos[d.initial];
  parts.push(`<line class="start" x1="${start.x - 60}" y1="${start.y}" x2="${start.x - RADIUS}" y2="${start.y}" stroke="#555" marker-end="url(#arrow)"/>`);
  d.edges.forEach((e, i) => {
    const label = edgeLabel(e);
    const shown = label.length > MAX_LABEL ? label.slice(0, MAX_LABEL - 1) + '…' : label;
    const a = pos[e.from];
    const b = pos[e.to];
    let path: string;
    let lx: number;
    let ly: number;
    if (e.from === e.to) {
      path = `M${a.x - 10},${a.y - RADIUS + 2} C${a.x - 40},${a.y - 80} ${a.x + 40},${a.y - 80} ${a.x + 10},${a.y - RADIUS + 2}`;
      lx = a.x;
      ly = a.y - 66 - (i % 2) * 12;
    } else {
      // Bend each edge a little so opposite edges do not overlap; the bend side follows direction.
      const dx = b.x - a.x;
      const dy = b.y - a.y;
      const len = Math.hypot(dx, dy) || 1;
      const ux = dx / len;
      const uy = dy / len;
      const bend = 28;
      const mx = (a.x + b.x) / 2 - uy * bend;
      const my = (a.y + b.y) / 2 + ux * bend;
      const sx = a.x + ux * RADIUS;
      const sy = a.y + uy * RADIUS;
      const tx = b.x - ux * RADIUS;
      const ty = b.y - uy * RADIUS;
      path = `M${sx.toFixed(1)},${sy.toFixed(1)} Q${mx.toFixed(1)},${my.toFixed(1)} ${tx.toFixed(1)},${ty.toFixed(1)}`;
      lx = (sx + 2 * mx + tx) / 4;
      ly = (sy + 2 * my + ty) / 4 - 4;
    }
    parts.push(
      `<g class="edge" data-from="${e.from}" data-to="${e.to}"><title>${escapeHtml(`${e.from} → ${e.to}: ${label}`)}</title>` +
        `<path d="${path}" fill="none" stroke="#555" marker-end="url(#arrow)"/>` +
        `<text x="${lx.toFixed(1)}" y="${ly.toFixed(1)}" text-anchor="middle" font-size="10">${escapeHtml(shown)}</text></g>`,
    );
  });
  for (let s = 0; s < d.stateCount; s++) {
    const p = pos[s];
    parts.push(
      `<g class="state${s === d.initial ? ' initial' : ''}" data-state="${s}"><circle cx="${p.x}" cy="${p.y}" r="${RADIUS}" fill="#e8f0fe" stroke="#1a56db" stroke-width="${s === d.initial ? 3 : 1.5}"/>` +
        `<text x="${p.x}" y="${p.y + 5}" text-anchor="middle" font-size="14">${s}</text></g>`,
    );
  }
  parts.push('</svg>');
  return parts.join('\n');
}
