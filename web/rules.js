// The rules panel: the current game's rules in words, as the server reads
// them from the rules text beside the variant file
// (GET /api/variants/{name}/rules with the game's options, through api.js), section by
// section, each piece's diagram drawn as the piece help draws it.

import { api } from './api.js';
import { disclosure, showHelp } from './help.js';

const $ = (id) => document.getElementById(id);

/** The game shown on the page: its variant view (name, options in force). */
function currentVariant() {
  return window.kamil?.variant ?? null;
}

async function fetchRules(name, chosen) {
  return api.rules(name, chosen);
}

/**
 * The options in force in a player's words: those changed from their
 * defaults (label and value), or that none is.
 */
function optionsChanged(view, chosen) {
  const changed = view.options
    .filter((o) => chosen?.[o.name] != null && chosen[o.name] !== o.default)
    .map((o) => `${o.label}: ${valueLabel(o, chosen[o.name])}`);
  if (!view.options.length) return 'This game has no options.';
  return changed.length ? `Options changed: ${changed.join('; ')}.` : 'Standard rules: every option at its default.';
}

function valueLabel(o, value) {
  const i = o.values.indexOf(value);
  return i >= 0 ? (o.value_labels?.[i] ?? value) : value;
}

/** Each option as a list item: label, summary, the value in force. */
function optionList(view, chosen) {
  const ul = document.createElement('ul');
  ul.className = 'option-list';
  for (const o of view.options) {
    const li = document.createElement('li');
    const b = document.createElement('strong');
    b.textContent = o.label;
    li.append(b, `: ${o.summary} Now: ${valueLabel(o, chosen?.[o.name] ?? o.default)}.`);
    ul.appendChild(li);
  }
  return ul;
}

/**
 * The rules text names options by key (`stalemate`, `lion-trading=modern`):
 * each such name becomes the option's label (and value), the key kept in
 * `data-key` for those who look.
 */
function nameOptions(root, view) {
  const byKey = new Map(view.options.map((o) => [o.name, o]));
  for (const code of root.querySelectorAll('code')) {
    const [key, value] = code.textContent.split('=');
    const o = byKey.get(key);
    if (!o) continue;
    const span = document.createElement('span');
    span.className = 'option-ref';
    span.dataset.key = code.textContent;
    span.textContent = value != null ? `${o.label}: ${valueLabel(o, value)}` : o.label;
    code.replaceWith(span);
  }
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
      p.textContent = optionsChanged(view, rules.chosen);
      const opts = Object.entries(rules.chosen ?? {}).map(([k, v]) => `${k}=${v}`);
      const key = document.createElement('code');
      key.textContent = rules.variant;
      const more = document.createElement('p');
      more.append('Game ', key, `${opts.length ? `; options in force: ${opts.join(', ')}` : ''}. From ${rules.file}.`);
      root.append(p, disclosure('details', more));
    }
    // The Options section: the options in plain words, the text (by key,
    // value by value) behind details; the Sources all behind details.
    const hidden = s.level === 2 && (s.title === 'Options' || s.title === 'Sources');
    if (s.level === 2 && s.title === 'Options') root.appendChild(optionList(view, rules.chosen));
    const into = hidden ? disclosure(s.title === 'Options' ? 'details: each option and value' : 'details: the sources') : root;
    for (const part of s.parts) {
      if (part.html != null) {
        const div = document.createElement('div');
        div.className = 'rules-text';
        // HTML made by the server from the rules text, raw HTML escaped.
        div.innerHTML = part.html;
        if (!hidden) nameOptions(div, view);
        into.appendChild(div);
      } else if (part.diagram != null && part.kind != null) {
        const fig = document.createElement('figure');
        fig.className = 'rules-diagram';
        fig.dataset.pieceKey = part.diagram;
        // The text beside the diagram describes the piece: said once.
        showHelp(fig, view, part.kind, 0, labels, { describe: false });
        into.appendChild(fig);
      }
    }
    if (hidden) root.appendChild(into);
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
