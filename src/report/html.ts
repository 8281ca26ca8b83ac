/**
 * The report page: spec with line numbers, verdict, controller diagram (realizable) or core and
 * counterplay (unrealizable). Everything is inline; the only script toggles highlighting when a
 * core entry is clicked. All user text goes through `escapeHtml`; data for the script is passed
 * in `data-` attributes, never spliced into script source.
 */
import type { Diagram } from '../explain/diagram.js';
import { toDot } from '../explain/diagram.js';
import { coreHeadline, type UnrealizableExplanation } from '../explain/explain.js';
import { renderStory } from '../explain/counterplay.js';
import { partText } from '../explain/words.js';
import { escapeHtml } from './escape.js';
import { diagramSvg } from './svg.js';

export interface ReportFile {
  readonly path: string;
  readonly text: string;
}

export interface ReportInput {
  readonly title: string;
  readonly files: readonly ReportFile[];
  readonly verdict: 'realizable' | 'unrealizable' | 'unknown';
  readonly seconds?: number;
  readonly diagram?: Diagram;
  readonly explanation?: UnrealizableExplanation;
  /** Why the verdict is unknown, or other remarks. */
  readonly note?: string;
  /** The assumptions a theory header added (`#LIA`, `#UF`), listed under their own heading. */
  readonly theory?: { readonly name: string; readonly facts: ReadonlyArray<{ readonly kind: string; readonly fact: string }> };
}

const STYLE = `
body { font-family: system-ui, sans-serif; margin: 24px; color: #1f2328; }
h1 { font-size: 22px; } h2 { font-size: 17px; margin-top: 28px; }
.verdict { display: inline-block; padding: 3px 10px; border-radius: 12px; font-weight: 600; }
.verdict.realizable { background: #dafbe1; color: #116329; }
.verdict.unrealizable { background: #ffebe9; color: #a40e26; }
.verdict.unknown { background: #fff8c5; color: #7d4e00; }
ol.spec { font-family: ui-monospace, monospace; font-size: 13px; background: #f6f8fa; padding: 8px 8px 8px 56px; border-radius: 6px; }
ol.spec li { white-space: pre; padding: 0 4px; }
ol.spec li.core { background: #fff1e5; }
ol.spec li.context { background: #eef6ff; }
ol.spec li.highlight { background: #ffd33d; outline: 2px solid #bf8700; }
ul.core a { cursor: pointer; font-family: ui-monospace, monospace; }
pre.story { background: #f6f8fa; padding: 12px; border-radius: 6px; font-size: 13px; white-space: pre-wrap; }
.diagram-box { overflow: auto; border: 1px solid #d0d7de; border-radius: 6px; }
details pre { font-size: 12px; }
ul.theory { font-family: ui-monospace, monospace; font-size: 13px; }
ul.theory .kind { color: #57606a; display: inline-block; min-width: 7em; }
`;

const SCRIPT = `
document.querySelectorAll('[data-target]').forEach(function (link) {
  link.addEventListener('click', function (event) {
    event.preventDefault();
    document.querySelectorAll('li.highlight').forEach(function (li) { li.classList.remove('highlight'); });
    var line = document.getElementById(link.getAttribute('data-target'));
    if (line) { line.classList.add('highlight'); line.scrollIntoView({ block: 'center' }); }
  });
});
`;

/** The element id of a spec line: file index + line, so ids stay valid whatever the path is. */
const lineId = (fileIndex: number, line: number) => `f${fileIndex}-L${line}`;

export function renderReport(input: ReportInput): string {
  const fileIndex = (file: string | undefined): number => {
    if (file === undefined) return -1;
    const exact = input.files.findIndex((f) => f.path === file);
    if (exact >= 0) return exact;
    const base = (p: string) => p.split(/[\\/]/).pop();
    return input.files.findIndex((f) => base(f.path) === base(file));
  };
  const marks = new Map<string, string>();
  const e = input.explanation;
  if (e) {
    for (const p of e.core.context) if (p.span) marks.set(lineId(fileIndex(p.span.file), p.span.line), 'context');
    for (const m of e.core.members) if (m.part.span) marks.set(lineId(fileIndex(m.part.span.file), m.part.span.line), 'core');
  }

  const body: string[] = [];
  body.push(`<h1>${escapeHtml(input.title)}</h1>`);
  const time = input.seconds !== undefined ? ` <span class="time">(${input.seconds.toFixed(2)} s)</span>` : '';
  body.push(`<p>Verdict: <span class="verdict ${input.verdict}" id="verdict">${input.verdict}</span>${time}</p>`);
  if (input.note) body.push(`<p class="note">${escapeHtml(input.note)}</p>`);

  if (e) {
    body.push('<h2>Why it is unrealizable</h2>');
    body.push(`<p class="headline">${escapeHtml(coreHeadline(e.core))}.</p>`);
    body.push('<p>Core — no controller can satisfy these lines together (click one to find it in the spec):</p><ul class="core">');
    for (const m of e.core.members) {
      const where = m.part.span ? `${m.part.span.file.split(/[\\/]/).pop()}:${m.part.span.line}` : '(no location)';
      const target = m.part.span ? lineId(fileIndex(m.part.span.file), m.part.span.line) : '';
      body.push(`<li><a class="core-link" href="#${target}" data-target="${target}">${escapeHtml(where)}</a> ${escapeHtml(partText(m.part))}</li>`);
    }
    body.push('</ul>');
    if (e.core.context.length > 0) {
      body.push('<p>under the assumptions:</p><ul class="context">');
      for (const p of e.core.context) {
        const where = p.span ? `${p.span.file.split(/[\\/]/).pop()}:${p.span.line}` : '';
        const target = p.span ? lineId(fileIndex(p.span.file), p.span.line) : '';
        body.push(`<li><a class="context-link" href="#${target}" data-target="${target}">${escapeHtml(where)}</a> ${escapeHtml(partText(p))}</li>`);
      }
      body.push('</ul>');
    }
    body.push(
      `<p class="minimality">${
        e.core.minimal
          ? `The core is minimal: without any one of its lines, the rest can be satisfied together — other conflicts may remain elsewhere in the spec (${e.core.solverCalls} solver calls, ${e.core.seconds.toFixed(1)} s of a ${(e.core.budgetMs / 1000).toFixed(0)} s budget).`
          : `The time budget (${(e.core.budgetMs / 1000).toFixed(0)} s) ran out before every line was proven necessary; the core may not be minimal.`
      }</p>`,
    );
    if (e.story) {
      body.push('<h2>Counterplay</h2><p>How the environment defeats every controller:</p>');
      body.push(`<pre class="story">${escapeHtml(renderStory(e.story))}</pre>`);
    }
  }

  if (input.theory && input.theory.facts.length > 0) {
    const t = input.theory;
    body.push(`<h2>Assumed from ${escapeHtml(t.name)}</h2>`);
    body.push(`<p>Facts of the theory about this spec's predicates and updates, each checked valid before it was assumed (${t.facts.length}):</p><ul class="theory">`);
    for (const f of t.facts) body.push(`<li><span class="kind">${escapeHtml(f.kind)}</span> ${escapeHtml(f.fact)}</li>`);
    body.push('</ul>');
  }

  if (input.diagram) {
    body.push(`<h2>Controller (${input.diagram.stateCount} state${input.diagram.stateCount === 1 ? '' : 's'})</h2>`);
    body.push('<p>Edges read <code>condition / updates</code>; <code>keep</code> means every signal keeps its value.</p>');
    body.push(`<div class="diagram-box">${diagramSvg(input.diagram)}</div>`);
    body.push(`<details><summary>Graphviz DOT</summary><pre>${escapeHtml(toDot(input.diagram))}</pre></details>`);
  }

  body.push('<h2>Specification</h2>');
  input.files.forEach((f, i) => {
    body.push(`<h3>${escapeHtml(f.path)}</h3><ol class="spec">`);
    f.text.split(/\r?\n/).forEach((line, k) => {
      const id = lineId(i, k + 1);
      const cls = marks.get(id);
      body.push(`<li id="${id}"${cls ? ` class="${cls}"` : ''}>${escapeHtml(line) || ' '}</li>`);
    });
    body.push('</ol>');
  });

  return [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">`,
    `<title>${escapeHtml(input.title)} — tslc report</title>`,
    `<style>${STYLE}</style></head><body>`,
    ...body,
    `<script>${SCRIPT}</script>`,
    '</body></html>',
    '',
  ].join('\n');
}
