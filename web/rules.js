// The rules panel: the current game's rules in words, as the server reads
// them from the rules text beside the variant file
// (GET /api/variants/{name}/rules with the game's options), section by
// section, each piece's diagram drawn as the piece help draws it.

import { showHelp } from './help.js';

const $ = (id) => document.getElementById(id);

/** The game shown on the page: its variant view (name, options in force). */
function currentVariant() {
  return window.kamil?.variant ?? null;
}

async function fetchRules(name, chosen) {
  const q = new URLSearchParams(chosen ?? {}).toString();
  const res = await fetch(`/api/variants/${encodeURIComponent(name)}/rules${q ? `?${q}` : ''}`);
  const data = await res.json().catch(() => null);
  if (!res.ok) throw new Error(data?.error ?? `${res.status} ${res.statusText}`);
  return data;
}

/** Fills `root` with `rules` (the API's answer). */
export function renderRules(root, rules, labels) {
  root.replaceChildren();
  root.dataset.variant = rules.variant;
  const view = rules.view;
  for (const s of rules.sections) {
    const h = document.createElement(`h${Math.min(s.level + 1, 4)}`);
    h.textContent = s.title;
    h.className = 'rules-heading';
    root.appendChild(h);
    if (s.level === 1) {
      const p = document.createElement('p');
      p.className = 'muted';
      const opts = Object.entries(rules.chosen ?? {}).map(([k, v]) => `${k}=${v}`);
      p.textContent = `Variant ${rules.variant}${opts.length ? `; options in force: ${opts.join(', ')}` : ''}. From ${rules.file}.`;
      root.appendChild(p);
    }
    for (const part of s.parts) {
      if (part.html != null) {
        const div = document.createElement('div');
        div.className = 'rules-text';
        // HTML made by the server from the rules text, raw HTML escaped.
        div.innerHTML = part.html;
        root.appendChild(div);
      } else if (part.diagram != null && part.kind != null) {
        const fig = document.createElement('figure');
        fig.className = 'rules-diagram';
        fig.dataset.pieceKey = part.diagram;
        showHelp(fig, view, part.kind, 0, labels);
        root.appendChild(fig);
      }
    }
  }
}

async function openRules() {
  const dialog = $('rules-dialog');
  const body = $('rules-body');
  const v = currentVariant();
  const name = v?.name ?? $('variant')?.value;
  if (!name) return;
  body.textContent = 'Loading the rules…';
  if (!dialog.open) dialog.showModal();
  try {
    const rules = await fetchRules(name, v?.name === name ? v.chosen : {});
    $('rules-title').textContent = `Rules: ${rules.view.title}`;
    renderRules(body, rules, window.kamil?.labels);
    body.scrollTop = 0;
  } catch (e) {
    body.textContent = `The rules could not be loaded: ${e.message}`;
  }
}

$('rules-open')?.addEventListener('click', openRules);
$('rules-close')?.addEventListener('click', () => $('rules-dialog').close());
