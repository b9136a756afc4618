"use strict";
// The trace player: one or two traces of one board, stepped together. Each trace's
// states are computed once at load (board, current domains, counters per step), so any
// step is reached at once: the scrubber, Home/End and jumps cost nothing to replay.
const data = JSON.parse(document.getElementById("trace-data").textContent);
const n = data.n, style = data.style;
const lineNames = Object.keys(data.lines);
const kinds = Object.keys(data.schema);
const blocked = new Set(data.blocked.map(([r, c]) => r * n + c));
const givenCol = new Map(data.givens.map(([r, c]) => [r, c]));
const $ = (id) => document.getElementById(id);
// canvas text, its box kept on the canvas (``boxes``, CSS px) so that a test can tell no two
// labels overlap; ``box`` is given where the label's room is more than its ink (a node)
function label(ctx, text, x, y, box) {
  ctx.fillText(text, x, y);
  if (box) { ctx.canvas.boxes.push(box); return; }
  const m = ctx.measureText(text);
  ctx.canvas.boxes.push([x - m.actualBoundingBoxLeft, y - m.actualBoundingBoxAscent,
    m.actualBoundingBoxLeft + m.actualBoundingBoxRight, m.actualBoundingBoxAscent + m.actualBoundingBoxDescent]);
}

// -- captions: the same templates and rule as queenslab/trace/captions.py -----------
function shown(v) { return v !== undefined && v !== null && v !== false; }
function words(name, v) {
  if (name === "line") return data.lines[v];
  return Array.isArray(v) ? v.join(" and ") : String(v);
}
// a search's own figure in words: "126 of them sideways", not "plateau_moves 126"
function figure([name, v]) {
  return (data.figures[name] || `{} ${name.replace(/_/g, " ")}`).replace("{}", v);
}
function caption(s) {
  const template = data.captions[s.kind];
  const grouped = template.replace(/\[([^\]]*)\]/g, (_, inner) =>
    [...inner.matchAll(/\{(\w+)\??\}/g)].every((m) => shown(s[m[1]])) ? inner : "");
  return grouped.replace(/\{(\w+)(\?)?\}/g, (_, name, silent) => (silent ? "" : words(name, s[name])));
}

function unpack(packed, index) {
  const kind = kinds[packed[0]], s = { step: index + 1, kind };
  data.schema[kind].forEach((name, i) => {
    const v = packed[i + 1];
    if (v !== undefined && v !== null) s[name] = name === "line" ? lineNames[v] : v;
  });
  return s;
}
function popcount(m) { let k = 0; while (m) { m &= m - 1; k++; } return k; }

class Trace {
  constructor(raw) {
    this.label = raw.label;
    this.steps = raw.steps.map(unpack);
    this.tree = raw.tree ? new Tree(raw.tree, this.steps, raw.mrv) : null;
    this.attacked = raw.attacked;
    this.length = this.steps.length;
    const last = this.steps[this.length - 1];
    this.stats = last.kind === "end" ? last.stats || {} : {};
    this.local = this.steps.some((s) => s.conflicts !== undefined);
    this.inference = this.steps.some((s) => s.domains !== undefined);
    this.precompute();
  }
  precompute() {
    // per state k (0 = before the first step): the board, the step whose domains
    // hold and the one before it, nodes and solutions so far, the solution boards
    const L = this.length + 1;
    this.boards = new Int16Array(L * n).fill(-1);
    this.domainAt = new Int32Array(L).fill(-1);
    this.parentDomainAt = new Int32Array(L).fill(-1);
    this.nodes = new Int32Array(L);
    this.solutions = new Int32Array(L);
    this.solved = new Uint8Array(L);
    let cols = new Array(n).fill(-1), lastSolution = null, nodes = 1, sols = 0;
    let domainStack = [-1];
    this.nodes[0] = 1;
    this.steps.forEach((s, i) => {
      const k = i + 1;
      let solved = false;
      if (s.kind === "place") {
        cols[s.row] = s.col; nodes++;
        domainStack.push(s.domains ? i : domainStack[domainStack.length - 1]);
      } else if (s.kind === "remove") { cols[s.row] = -1; domainStack.pop(); }
      else if (s.kind === "prune") domainStack = [i];
      else if (s.kind === "move") cols[s.row] = s.col;
      else if (s.kind === "swap") s.rows.forEach((r, j) => { cols[r] = s.cols[j]; });
      else if (s.kind === "restart") { cols = s.cols.slice(); domainStack = [-1]; }
      else if (s.kind === "solution") { cols = s.cols.slice(); lastSolution = cols.slice(); sols++; solved = true; }
      else if (s.kind === "end") {
        if (s.status === "exhausted" && lastSolution) cols = lastSolution.slice();
        solved = s.status === "solved" || (s.status === "exhausted" && lastSolution !== null);
      }
      this.boards.set(cols, k * n);
      this.domainAt[k] = domainStack[domainStack.length - 1];
      this.parentDomainAt[k] = domainStack.length > 1 ? domainStack[domainStack.length - 2] : -1;
      this.nodes[k] = nodes; this.solutions[k] = sols; this.solved[k] = solved ? 1 : 0;
    });
    this.conflicts = this.steps.map((s) => (s.conflicts === undefined ? null : s.conflicts));
  }
  board(k) { return Array.from(this.boards.subarray(k * n, (k + 1) * n)); }
  // the next / previous step (state index) after k where a solution or failure shows
  jump(k, what, direction) {
    const hit = (i) => (what === "solution" ? this.steps[i].kind === "solution"
      : this.steps[i].kind === "wipeout" || (this.tree && this.tree.failsAt.has(i + 1)));
    for (let i = k - 1 + direction; i >= 0 && i < this.length; i += direction) {
      if (i + 1 !== k && hit(i)) return i + 1;
    }
    return k;
  }
}

// -- the search tree ----------------------------------------------------------------
class Tree {
  constructor(raw, steps, mrv) {
    Object.assign(this, raw);
    const count = this.parent.length;
    this.children = Array.from({ length: count }, () => []);
    for (let v = 1; v < count; v++) this.children[this.parent[v]].push(v);
    this.depth = new Int16Array(count);
    for (let v = 1; v < count; v++) this.depth[v] = this.depth[this.parent[v]] + 1;
    this.maxDepth = this.depth.reduce((a, b) => Math.max(a, b), n);
    this.cell = new Array(count).fill(null);
    let node = 0;
    steps.forEach((s) => { if (s.kind === "place") this.cell[++node] = [s.row, s.col]; });
    this.failsAt = new Set(this.failed.filter((f) => f > 0));
    // per node: the first step a solution shows in its subtree (for collapsed triangles)
    this.firstSolution = this.solved.map((f) => f || Infinity);
    for (let v = count - 1; v > 0; v--) {
      const p = this.parent[v];
      this.firstSolution[p] = Math.min(this.firstSolution[p], this.firstSolution[v]);
    }
    // MRV picks the row (even where it picks them in order): then each node says, under it,
    // which row its children fill
    this.rowsVary = mrv || this.cell.some((c, v) => c && c[0] !== this.depth[v] - 1);
    this.collapsed = new Set();
    this.layout();
  }
  layout() {
    // a tidy tree: each subtree is pushed right only as far as its own levels need
    // (contours, as Reingold & Tilford 1981), so a shallow dead end tucks in under its
    // neighbours and the labels keep room; a collapsed node is a leaf
    const count = this.parent.length, offset = new Float64Array(count);
    const order = [], stack = [0];
    while (stack.length) {  // iterative: the tree may be deep and wide
      const v = stack.pop();
      order.push(v);
      if (!this.collapsed.has(v)) for (const w of this.children[v]) stack.push(w);
    }
    const contour = new Array(count);  // per level below v: [leftmost, rightmost], v at 0
    for (let i = order.length - 1; i >= 0; i--) {
      const v = order[i], kids = this.collapsed.has(v) ? [] : this.children[v];
      const left = [], right = [];
      kids.forEach((w, j) => {
        const [l, r] = contour[w];
        let shift = 0;
        if (j) for (let d = 0; d < Math.min(l.length, right.length); d++) shift = Math.max(shift, right[d] - l[d] + 1);
        offset[w] = shift;
        l.forEach((x, d) => { if (d >= left.length) left.push(x + shift); });
        r.forEach((x, d) => { right[d] = x + shift; });
        contour[w] = null;
      });
      const mid = kids.length ? (offset[kids[0]] + offset[kids[kids.length - 1]]) / 2 : 0;
      kids.forEach((w) => { offset[w] -= mid; });
      contour[v] = [[0, ...left.map((x) => x - mid)], [0, ...right.map((x) => x - mid)]];
    }
    this.x = new Float64Array(count).fill(NaN);
    this.x[0] = 0;
    for (const v of order) if (v) this.x[v] = this.x[this.parent[v]] + offset[v];
    const [left, right] = contour[0];
    const low = Math.min(...left);
    for (const v of order) this.x[v] -= low;
    this.span = Math.max(...right) - low;  // in node widths
    // per node, the room to its nearest neighbour on its level: how wide it may be drawn
    this.gap = new Float64Array(count).fill(Infinity);
    const levels = [];
    for (const v of order) (levels[this.depth[v]] ||= []).push(v);
    for (const level of levels) {
      level.sort((a, b) => this.x[a] - this.x[b]);
      for (let i = 1; i < level.length; i++) {
        const d = this.x[level[i]] - this.x[level[i - 1]];
        this.gap[level[i]] = Math.min(this.gap[level[i]], d);
        this.gap[level[i - 1]] = Math.min(this.gap[level[i - 1]], d);
      }
    }
  }
  colour(v, k) {
    // green: a solution, or an explored node a solution was found below
    if (this.firstSolution[v] <= k && (this.solved[v] || (this.end[v] && this.end[v] <= k))) return style.solution;
    if (this.failed[v] && this.failed[v] <= k) return style.attacked;
    if (this.end[v] && this.end[v] <= k) return style.explored;
    return style.path;
  }
  toggle(v) {
    if (!v || !this.children[v].length) return;  // the root stays: a folded root shows nothing
    if (this.collapsed.has(v)) this.collapsed.delete(v); else this.collapsed.add(v);
    this.layout();
  }
  collapseFailed(k) {
    // every explored subtree without a solution (so far) folds into a triangle
    this.collapsed.clear();
    for (let v = 1; v < this.parent.length; v++) {
      const closed = this.end[v] && this.end[v] <= k;
      if (closed && this.children[v].length && !(this.firstSolution[v] <= k)) {
        let p = this.parent[v], inside = false;
        while (p > 0) { if (this.collapsed.has(p)) { inside = true; break; } p = this.parent[p]; }
        if (!inside) this.collapsed.add(v);
      }
    }
    this.layout();
  }
}

// -- a panel: one trace's board, caption and tree or chart ---------------------------
class Panel {
  constructor(trace, index, host) {
    this.trace = trace;
    this.index = index;
    const el = document.createElement("section");
    el.className = "panel";
    el.innerHTML = `<h2></h2><div class="words"><div class="caption"></div>
      <details class="revisions"><summary></summary><ol></ol></details></div><div class="views">
      <canvas class="board"></canvas><canvas class="side"></canvas></div>`;
    host.appendChild(el);
    this.el = el;
    el.querySelector("h2").textContent = trace.label;
    this.wordsEl = el.querySelector(".words");
    this.captionEl = el.querySelector(".caption");
    this.revisionsEl = el.querySelector(".revisions");
    this.revisionsEl.id = index ? `revisions-${index}` : "revisions";
    this.pointed = -1;  // the revision under the pointer, framed on the board
    this.revisionsEl.addEventListener("mouseover", (e) => {
      const item = e.target.closest("li");
      this.pointed = item ? [...item.parentNode.children].indexOf(item) : -1;
      player.draw();
    });
    this.revisionsEl.addEventListener("mouseleave", () => { this.pointed = -1; player.draw(); });
    this.views = el.querySelector(".views");
    this.boardCanvas = el.querySelector(".board");
    this.sideCanvas = el.querySelector(".side");
    this.boardCanvas.id = index ? `board-${index}` : "board";
    this.sideCanvas.id = (trace.tree ? "tree" : "chart") + (index ? `-${index}` : "");
    this.view = { scale: 1, offset: 0 };  // tree zoom (x only) and pan, in leaves
    if (trace.tree) this.bindTree();
  }
  state(k) { return Math.min(k, this.trace.length); }
  size(width, height, stacked) {
    const share = this.trace.tree ? 0.45 : 0.55;  // a tree wants more width than a chart
    const side = Math.max(120, Math.floor(stacked ? Math.min(width, height * 0.6) : Math.min(height, width * share)));
    const dpr = window.devicePixelRatio || 1;
    const set = (canvas, w, h) => {
      canvas.style.width = `${w}px`; canvas.style.height = `${h}px`;
      canvas.width = Math.round(w * dpr); canvas.height = Math.round(h * dpr);
      canvas.getContext("2d").setTransform(dpr, 0, 0, dpr, 0, 0);
      canvas.cssWidth = w; canvas.cssHeight = h;
    };
    set(this.boardCanvas, side, side);
    if (stacked) set(this.sideCanvas, Math.floor(width), Math.max(120, Math.floor(height - side - 16)));
    else set(this.sideCanvas, Math.max(160, Math.floor(width - side - 16)), Math.max(side, Math.floor(height)));
    return side * side + this.sideCanvas.cssWidth * this.sideCanvas.cssHeight;
  }
  draw(k) {
    const t = this.trace, s = this.state(k), last = s ? t.steps[s - 1] : null;
    this.showRevisions(last);  // first: a new step forgets the revision pointed at
    this.drawBoard(s, last);
    if (t.tree) this.drawTree(s); else this.drawChart(s);
    // the counts so far (local search: in the caption); the end's caption names the solutions
    const counts = !t.tree ? "" : last && last.kind === "end" ? `nodes ${t.nodes[s]}` : `nodes ${t.nodes[s]}, solutions ${t.solutions[s]}`;
    // at the end, the search's own statistics (the same numbers as the backend's), each once
    const stats = s === t.length ? Object.entries(t.stats).filter(([, v]) => typeof v === "number") : [];
    const listed = (all) => stats.filter(([key]) => all || !(counts && key === "nodes")).map(figure).join(", ");
    const summary = listed(false);
    this.captionEl.textContent = (last ? `step ${s}: ${caption(last)}` : "step 0: the board before the search") +
      (counts ? `  ·  ${counts}` : "") + (summary && !player.compare ? `  ·  ${summary}` : "");
    this.el.querySelector("h2").textContent = t.label + (stats.length ? ` (${listed(true)})` : "");
    // words taller than any before (a longer caption, AC-3's line): their height is kept,
    // and the canvases make room
    const height = this.wordsEl.offsetHeight, grew = height > this.wordsHeight;
    if (grew) { this.wordsHeight = height; this.wordsEl.style.minHeight = `${height}px`; }
    return grew;
  }
  showRevisions(last) {
    // MAC: AC-3's revisions after the placement, folded under it until asked for
    const list = last && last.revisions && last.revisions.length ? last.revisions : null;
    this.revisionsEl.hidden = !list;
    if (!list) return;
    const first = last.forward === undefined ? "arc consistency before the first choice"
      : `forward checking removed ${last.forward}, then AC-3`;
    this.revisionsEl.querySelector("summary").textContent =
      `${first}: ${list.length} revision${list.length > 1 ? "s" : ""} (A)`;
    const ol = this.revisionsEl.querySelector("ol"), side = this.sideCanvas;
    Object.assign(ol.style, {  // over the tree, not the board the revisions explain
      left: `${side.offsetLeft}px`, top: `${side.offsetTop}px`, width: `${side.cssWidth}px`, maxHeight: `${side.cssHeight}px`,
    });
    if (ol.dataset.step === String(last.step)) return;  // the list under the pointer stays
    ol.dataset.step = String(last.step);
    this.pointed = -1;
    ol.innerHTML = list.map(([row, col, against, domain]) => {
      const left = [];
      for (let c = 0; c < n; c++) if (domain >> c & 1) left.push(c);
      return `<li>arc row ${row} → row ${against}: row ${row} loses col ${col}, which attacks every ` +
        `column left in row ${against} (${left.join(", ")})</li>`;
    }).join("");
  }
  drawBoard(s, last) {
    const t = this.trace, canvas = this.boardCanvas, ctx = canvas.getContext("2d");
    // row and column numbers, as the captions name them: the room's text size where the
    // cells leave room for it
    const font = n <= 24 ? Math.min(0.8 * player.text(), (canvas.cssWidth / (n + 1)) * 0.55) : 0;
    const margin = font && Math.max(12, font * 1.5);
    const cell = (canvas.cssWidth - margin) / n, x0 = margin, y0 = margin;
    const cols = t.board(s), solved = t.solved[s] === 1;
    const at = (r, c) => [x0 + c * cell, y0 + r * cell];
    ctx.clearRect(0, 0, canvas.cssWidth, canvas.cssHeight);
    ctx.fillStyle = "#fff"; ctx.fillRect(0, 0, canvas.cssWidth, canvas.cssHeight);
    canvas.boxes = [];
    if (margin) {
      ctx.fillStyle = "#333"; ctx.font = `${font}px system-ui, sans-serif`;
      ctx.textAlign = "center"; ctx.textBaseline = "middle";
      for (let i = 0; i < n; i++) {
        label(ctx, String(i), x0 + (i + 0.5) * cell, margin / 2);
        label(ctx, String(i), margin / 2, y0 + (i + 0.5) * cell);
      }
    }
    for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) {
      const [x, y] = at(r, c);
      // big boards: faint squares, so that the queens stand out
      const dark = n > 24 ? hexAlpha(style.dark, 0.22) : style.dark;
      if ((r + c) % 2 && n > 24) { ctx.fillStyle = style.light; ctx.fillRect(x, y, cell + 0.5, cell + 0.5); }
      ctx.fillStyle = blocked.has(r * n + c) ? style.blocked : (r + c) % 2 ? dark : style.light;
      ctx.fillRect(x, y, cell + 0.5, cell + 0.5);
      if (blocked.has(r * n + c)) cross(ctx, x, y, cell, "#ddd");
    }
    const domains = t.domainAt[s] >= 0 ? t.steps[t.domainAt[s]].domains : null;
    const before = t.parentDomainAt[s] >= 0 ? t.steps[t.parentDomainAt[s]].domains : null;
    // MAC: the values AC-3 removed after forward checking, crossed in their own colour
    const revised = new Set((last && last.revisions ? last.revisions : []).map(([r, c]) => r * n + c));
    if (domains) {  // forward checking / MAC: what the open rows still hold
      for (let r = 0; r < n; r++) if (cols[r] < 0) for (let c = 0; c < n; c++) {
        const [x, y] = at(r, c);
        if (domains[r] >> c & 1) { ctx.fillStyle = hexAlpha(style.domain, 0.7); ctx.fillRect(x, y, cell, cell); }
        else if (last && last.kind === "place" && (before ? before[r] >> c & 1 : !blocked.has(r * n + c))) {
          cross(ctx, x, y, cell, revised.has(r * n + c) ? style.path : style.attacked);  // removed by this placement
        }
      }
    }
    if (last && last.kind === "place" && last.free) {
      ctx.fillStyle = hexAlpha(style.domain, 0.45);
      last.free.forEach((c) => { const [x, y] = at(last.row, c); ctx.fillRect(x, y, cell, cell); });
    }
    const moved = !last ? [] : last.kind === "swap" ? last.rows : last.kind === "move" ? [last.row] : [];
    moved.forEach((r) => { ctx.fillStyle = hexAlpha(style.moved, 0.5); ctx.fillRect(x0, y0 + r * cell, n * cell, cell); });
    if (last && last.kind === "wipeout") {
      ctx.fillStyle = hexAlpha(style.attacked, 0.35); ctx.fillRect(x0, y0 + last.row * cell, n * cell, cell);
    }
    const pointed = last && last.revisions ? last.revisions[this.pointed] : undefined;
    if (pointed) {  // the revision under the pointer: the row of its arc, and the value it removed
      const [row, col, against] = pointed, [x, y] = at(row, col);
      ctx.fillStyle = hexAlpha(style.path, 0.25); ctx.fillRect(x0, y0 + against * cell, n * cell, cell);
      ctx.strokeStyle = style.path; ctx.lineWidth = Math.max(3, cell / 8);
      ctx.strokeRect(x + ctx.lineWidth / 2, y + ctx.lineWidth / 2, cell - ctx.lineWidth, cell - ctx.lineWidth);
    }
    givenCol.forEach((c, r) => {
      const [x, y] = at(r, c);
      ctx.strokeStyle = style.given; ctx.lineWidth = Math.max(2, cell / 10);
      ctx.strokeRect(x + ctx.lineWidth / 2, y + ctx.lineWidth / 2, cell - ctx.lineWidth, cell - ctx.lineWidth);
    });
    if (last && last.kind === "reject") {
      const [x, y] = at(last.row, last.col);
      ctx.fillStyle = hexAlpha(style.attacked, 0.75); ctx.fillRect(x, y, cell, cell);
      if (last.by !== undefined && cols[last.by] >= 0) {
        const [ax, ay] = at(last.by, cols[last.by]);
        ctx.strokeStyle = style.attacked; ctx.lineWidth = Math.max(2, cell / 8);
        ctx.beginPath(); ctx.moveTo(ax + cell / 2, ay + cell / 2); ctx.lineTo(x + cell / 2, y + cell / 2); ctx.stroke();
      }
    }
    const attacked = new Set(t.attacked && s ? t.attacked[s - 1] : []);
    cols.forEach((c, r) => {
      if (c < 0) return;
      const [x, y] = at(r, c);
      ctx.fillStyle = solved ? style.solution : attacked.has(r) ? style.attacked : givenCol.get(r) === c ? style.given : style.queen;
      ctx.beginPath(); ctx.arc(x + cell / 2, y + cell / 2, n > 24 ? Math.max(2.5, cell * 0.55) : cell * 0.36, 0, 2 * Math.PI); ctx.fill();
      if (cell >= 14) { ctx.strokeStyle = "#fff"; ctx.lineWidth = Math.max(1, cell / 20); ctx.stroke(); }
    });
    canvas.dataset.cols = cols.join(",");
    canvas.dataset.solved = solved ? "1" : "0";
    canvas.dataset.geometry = JSON.stringify([x0, y0, cell]);
  }
  // -- tree -----------------------------------------------------------------------
  treeGeometry() {
    // a level per row; a node is up to 0.8 of a level tall, less where MRV's row tags need
    // room between the levels, though not too small for its label (8 px: a 10 px label);
    // nodes grow with the text scale, and keep their ring inside
    const tree = this.trace.tree, canvas = this.sideCanvas;
    const level = (canvas.cssHeight - 8) / (tree.maxDepth + 1);
    const tags = tree.rowsVary ? Math.max(12, 0.3 * level) : 0;
    const ry = Math.max(2, Math.min(20 * player.scale, 0.4 * level, Math.max(8, (level - tags) / 2)));
    const pad = ry + 5, top = (canvas.cssHeight - level * tree.maxDepth) / 2;
    const spacing = ((canvas.cssWidth - 2 * pad) / Math.max(tree.span, 1)) * this.view.scale;
    const x = (v) => pad + (tree.x[v] - this.view.offset) * spacing;
    const y = (v) => top + level * tree.depth[v];
    return { spacing, x, y, pad, level, ry };
  }
  drawTree(s) {
    const tree = this.trace.tree, canvas = this.sideCanvas, ctx = canvas.getContext("2d");
    const { spacing, x, y, ry } = this.treeGeometry();
    // as large as the room between two levels allows, and narrower (an oval) where
    // siblings crowd: a column number is narrow, so an oval keeps it readable
    const rx = Math.max(2, Math.min(ry, spacing * 0.43));
    ctx.clearRect(0, 0, canvas.cssWidth, canvas.cssHeight);
    canvas.boxes = [];
    const visible = [];
    const stack = [0];
    while (stack.length) {
      const v = stack.pop();
      if (tree.born[v] > s) continue;
      visible.push(v);
      if (!tree.collapsed.has(v)) for (const w of tree.children[v]) stack.push(w);
    }
    const wide = (v) => Math.max(rx, Math.min(ry, tree.gap[v] * spacing * 0.43));  // its neighbours' room
    ctx.lineWidth = Math.max(1.5, Math.min(3, spacing * 0.12));
    for (const v of visible) {
      if (v === 0) continue;
      const p = tree.parent[v];
      ctx.strokeStyle = tree.colour(v, s);
      ctx.beginPath(); ctx.moveTo(x(p), y(p)); ctx.lineTo(x(v), y(v)); ctx.stroke();
    }
    ctx.textAlign = "center"; ctx.textBaseline = "middle";
    ctx.font = "bold 100px system-ui, sans-serif";  // a column label's width per px of font size
    const perPx = ctx.measureText(n > 10 ? "10" : "0").width / 100;
    const fontSize = Math.floor(Math.min(ry * 1.25, (rx * 1.85) / perPx));
    const labels = fontSize >= 10;
    ctx.font = `bold ${fontSize}px system-ui, sans-serif`;
    for (const v of visible) {
      const cx = x(v), cy = y(v);
      if (cx < -20 || cx > canvas.cssWidth + 20) continue;
      ctx.fillStyle = tree.colour(v, s);
      if (tree.collapsed.has(v)) {  // a folded subtree: a triangle, green if it holds a solution
        const h = Math.max(10, ry * 2.4), half = Math.min(h / 2, wide(v) * 1.1);
        ctx.fillStyle = tree.firstSolution[v] <= s ? style.solution : tree.colour(v, s);
        ctx.beginPath(); ctx.moveTo(cx, cy - ry); ctx.lineTo(cx - half, cy - ry + h); ctx.lineTo(cx + half, cy - ry + h); ctx.fill();
        continue;
      }
      // an oval only to hold a label; unlabelled nodes are dots
      ctx.beginPath();
      if (labels) ctx.ellipse(cx, cy, wide(v), ry, 0, 0, 2 * Math.PI); else ctx.arc(cx, cy, Math.min(ry, wide(v)), 0, 2 * Math.PI);
      ctx.fill();
      // a label's room is its node; a node the edge of a zoomed tree cuts keeps none
      if (!labels || cx - wide(v) < 0 || cx + wide(v) > canvas.cssWidth) continue;
      const node = [cx - wide(v), cy - ry, 2 * wide(v), 2 * ry];
      if (tree.cell[v]) { ctx.fillStyle = "#fff"; label(ctx, String(tree.cell[v][1]), cx, cy + 0.5, node); }
      else canvas.boxes.push(node);
    }
    canvas.dataset.rows = labels && tree.rowsVary ? String(this.drawRows(visible, s, fontSize)) : "0";
    const current = this.currentNode(s);
    if (current >= 0) {
      ctx.strokeStyle = "#000"; ctx.lineWidth = 2;
      ctx.beginPath(); ctx.ellipse(x(current), y(current), wide(current) + 3, (labels ? ry : Math.min(ry, wide(current))) + 3, 0, 0, 2 * Math.PI); ctx.stroke();
    }
    canvas.dataset.visible = String(visible.length);
    canvas.dataset.labels = labels ? String(fontSize) : "0";
  }
  drawRows(visible, s, fontSize) {
    // MRV: "r5" under a node, halfway down to its children, names the row they fill; no
    // larger than the room between a node and its children, nor wider than two parents'
    // distance; none where that room is too small to read (the size drawn is returned)
    const tree = this.trace.tree, ctx = this.sideCanvas.getContext("2d"), { x, y, level, spacing, ry } = this.treeGeometry();
    ctx.save();
    ctx.font = "100px system-ui, sans-serif"; ctx.textBaseline = "alphabetic"; ctx.lineJoin = "round";
    const m = ctx.measureText(`r${n - 1}`), tall = (m.actualBoundingBoxAscent + m.actualBoundingBoxDescent) / 100;
    const size = Math.floor(Math.min(fontSize, (0.9 * spacing * 100) / m.width, (level - 2 * ry - 4) / tall));
    const lift = ((m.actualBoundingBoxAscent - m.actualBoundingBoxDescent) * size) / 200;  // ink centred
    ctx.font = `${size}px system-ui, sans-serif`;
    for (const v of size >= 8 ? visible : []) {
      const child = tree.collapsed.has(v) ? undefined : tree.children[v].find((w) => tree.born[w] <= s);
      if (child === undefined) continue;
      const tag = `r${tree.cell[child][0]}`, tx = x(v), ty = y(v) + level / 2 + lift;
      ctx.strokeStyle = "#fff"; ctx.lineWidth = 4; ctx.strokeText(tag, tx, ty);
      ctx.fillStyle = "#222"; label(ctx, tag, tx, ty);
    }
    ctx.restore();
    return size >= 8 ? size : 0;
  }
  currentNode(s) {
    const tree = this.trace.tree;
    let node = 0;
    for (let v = 1; v < tree.parent.length && tree.born[v] <= s; v++) {
      if (!tree.end[v] || tree.end[v] > s) node = v;
    }
    return node;
  }
  nodeAt(px, py) {
    const tree = this.trace.tree, { x, y } = this.treeGeometry();
    let best = -1, bestDistance = 144;
    for (let v = 0; v < tree.parent.length; v++) {
      if (tree.born[v] > player.k) continue;
      const d = (x(v) - px) ** 2 + (y(v) - py) ** 2;
      if (d < bestDistance) { best = v; bestDistance = d; }
    }
    return best;
  }
  zoom(factor, px) {
    const { spacing, pad } = this.treeGeometry();
    const at = this.view.offset + (px - pad) / spacing;  // the leaf under the pointer stays put
    this.view.scale = Math.min(400, Math.max(1, this.view.scale * factor));
    const after = this.treeGeometry().spacing;
    this.view.offset = at - (px - pad) / after;
    if (this.view.scale === 1) this.view.offset = 0;
  }
  bindTree() {
    const canvas = this.sideCanvas;
    let drag = null;
    canvas.addEventListener("wheel", (e) => {
      e.preventDefault();
      this.zoom(e.deltaY < 0 ? 1.25 : 0.8, e.offsetX); player.draw();
    }, { passive: false });
    canvas.addEventListener("mousedown", (e) => { drag = { x: e.offsetX, offset: this.view.offset, moved: false }; });
    canvas.addEventListener("mousemove", (e) => {
      if (drag && Math.abs(e.offsetX - drag.x) > 3) {
        drag.moved = true;
        this.view.offset = drag.offset - (e.offsetX - drag.x) / this.treeGeometry().spacing;
        player.draw();
      }
      const v = drag ? -1 : this.nodeAt(e.offsetX, e.offsetY);
      const cell = v > 0 ? this.trace.tree.cell[v] : null;
      canvas.title = cell ? `row ${cell[0]} col ${cell[1]} (click: its board; shift+click: fold or unfold)` : "";
    });
    window.addEventListener("mouseup", (e) => {
      if (drag && !drag.moved && e.target === canvas) {
        const v = this.nodeAt(e.offsetX, e.offsetY), tree = this.trace.tree;
        // a click shows the node's board (the step that placed it); shift+click, or a click
        // on a folded subtree, folds or unfolds
        if (v >= 0 && (e.shiftKey || tree.collapsed.has(v))) { tree.toggle(v); player.draw(); }
        else if (v >= 0) { player.pause(); player.go(tree.born[v]); }
      }
      drag = null;
    });
  }
  fit() { this.view = { scale: 1, offset: 0 }; }
  // -- conflicts chart (local search) -------------------------------------------------
  drawChart(s) {
    const t = this.trace, canvas = this.sideCanvas, ctx = canvas.getContext("2d");
    const values = t.conflicts, peak = values.reduce((a, v) => (v === null ? a : Math.max(a, v)), 1);
    // the margins hold the axes' words in the room's text size
    const f = Math.round(0.85 * player.text()), digits = (v) => String(v).length * 0.6 * f;
    const W = canvas.cssWidth, H = canvas.cssHeight, left = digits(peak) + 2.4 * f, bottom = 3.2 * f, top = f, right = f;
    ctx.clearRect(0, 0, W, H);
    canvas.boxes = [];
    const X = (i) => left + ((W - left - right) * i) / Math.max(1, t.length - 1);
    const Y = (v) => H - bottom - ((H - bottom - top) * v) / peak;
    ctx.strokeStyle = "#888"; ctx.lineWidth = 1; ctx.fillStyle = "#333";
    ctx.font = `${f}px system-ui, sans-serif`; ctx.textAlign = "right"; ctx.textBaseline = "middle";
    ctx.beginPath(); ctx.moveTo(left, top); ctx.lineTo(left, H - bottom); ctx.lineTo(W - right, H - bottom); ctx.stroke();
    ticks(peak, (H - bottom - top) / (2.2 * f)).forEach((v) => {  // every value named, on a faint grid
      label(ctx, String(v), left - f / 2, Y(v));
      ctx.strokeStyle = "#e4e4e4"; ctx.beginPath(); ctx.moveTo(left + 1, Y(v)); ctx.lineTo(W - right, Y(v)); ctx.stroke();
    });
    // steps count from 1: the corner's 0 is the attacking pairs' alone
    ctx.textAlign = "center"; ctx.textBaseline = "top";
    ticks(t.length, (W - left - right) / (digits(t.length) + 2 * f)).filter((k) => k > 0)
      .forEach((k) => label(ctx, String(k), X(k - 1), H - bottom + f / 2));
    label(ctx, "step", (left + W - right) / 2, H - bottom + 1.9 * f);
    const title = "attacking pairs", across = ctx.measureText(title).width, middle = (top + H - bottom) / 2;
    ctx.save(); ctx.translate(0.2 * f, middle); ctx.rotate(-Math.PI / 2); ctx.fillText(title, 0, 0); ctx.restore();
    canvas.boxes.push([0.2 * f, middle - across / 2, f, across]);
    ctx.setLineDash([4, 4]); ctx.strokeStyle = style.explored;
    for (let i = 0; i < s; i++) if (t.steps[i].kind === "restart") {
      ctx.beginPath(); ctx.moveTo(X(i), top); ctx.lineTo(X(i), H - bottom); ctx.stroke();
    }
    ctx.setLineDash([]); ctx.strokeStyle = style.path; ctx.lineWidth = 2.5; ctx.beginPath();
    let started = false;
    for (let i = 0; i < s; i++) {
      if (values[i] === null) continue;
      if (started) ctx.lineTo(X(i), Y(values[i])); else { ctx.moveTo(X(i), Y(values[i])); started = true; }
    }
    ctx.stroke();
    for (let i = 0; i < s; i++) if (t.steps[i].plateau) {
      ctx.fillStyle = style.moved; ctx.beginPath(); ctx.arc(X(i), Y(values[i]), 3.5, 0, 2 * Math.PI); ctx.fill();
    }
    let i = s - 1;
    while (i >= 0 && values[i] === null) i--;
    if (i >= 0) {
      ctx.fillStyle = values[i] === 0 ? style.solution : style.attacked;
      ctx.beginPath(); ctx.arc(X(i), Y(values[i]), 6, 0, 2 * Math.PI); ctx.fill();
    }
    canvas.dataset.points = String(values.slice(0, s).filter((v) => v !== null).length);
  }
}

// round axis values from 0 to max, at most about `room` of them: steps of 1, 2 or 5 x 10^k
function ticks(max, room) {
  let step = 1;
  while (max / step > Math.max(1, room)) step *= String(step)[0] === "2" ? 2.5 : 2;
  const values = [];
  for (let v = 0; v <= max; v += step) values.push(v);
  return values;
}
function hexAlpha(hex, alpha) {
  const v = parseInt(hex.slice(1), 16);
  return `rgba(${v >> 16},${(v >> 8) & 255},${v & 255},${alpha})`;
}
function cross(ctx, x, y, cell, colour) {
  const m = cell * 0.28;
  ctx.strokeStyle = colour; ctx.lineWidth = Math.max(1.5, cell / 14);
  ctx.beginPath(); ctx.moveTo(x + m, y + m); ctx.lineTo(x + cell - m, y + cell - m);
  ctx.moveTo(x + cell - m, y + m); ctx.lineTo(x + m, y + cell - m); ctx.stroke();
}

// -- the player: one step counter for every panel ------------------------------------
const player = {
  k: 0,
  timer: null,
  // the text scale: ?scale=1.5 in the address, else the page's own (queens trace --projector)
  scale: Number(new URLSearchParams(location.search).get("scale")) || data.scale,
  text() { return parseFloat(getComputedStyle(document.body).fontSize) * this.scale; },  // in px
  setScale(scale) {
    this.scale = Math.min(3, Math.max(0.5, Math.round(scale * 100) / 100));
    document.documentElement.style.setProperty("--scale", String(this.scale));
    this.layout();
  },
  traces: data.traces.map((raw) => new Trace(raw)),
  panels: [],
  get length() { return Math.max(...this.traces.map((t) => t.length)); },
  get compare() { return this.traces.length > 1; },
  go(k) {
    this.k = Math.max(0, Math.min(this.length, k));
    this.draw();
    if (this.k >= this.length) this.pause();
  },
  draw() {
    const grew = this.panels.map((p) => p.draw(this.k)).some((g) => g);
    $("scrub").value = String(this.k);
    $("status").textContent = `step ${this.k} of ${this.length}`;
    $("play").textContent = this.timer === null ? "play" : "pause";
    if (grew && !this.arranging) this.layout();
  },
  rate() { return Math.round(Math.pow(10, $("speed").value / 25)); },
  play() {
    this.pause();
    if (this.k >= this.length) this.k = 0;
    const every = Math.max(16, 1000 / this.rate()), per = Math.max(1, Math.round(this.rate() / 60));
    this.timer = setInterval(() => this.go(this.k + per), every);
    this.draw();
  },
  pause() { if (this.timer !== null) { clearInterval(this.timer); this.timer = null; } },
  toggle() { if (this.timer === null) this.play(); else { this.pause(); this.draw(); } },
  step(delta) { this.pause(); this.go(this.k + delta); },
  jump(what, direction) {
    this.pause();
    const targets = this.traces.map((t) => t.jump(this.k, what, direction)).filter((k) => k !== this.k);
    if (targets.length) this.go(direction > 0 ? Math.min(...targets) : Math.max(...targets));
  },
  layout() {
    // the canvases fill the window below the captions, whatever its size; two traces
    // go one above the other (board beside tree) or side by side (board over tree),
    // whichever leaves the canvases more of the window
    this.arranging = true;
    if (this.compare) {
      const area = [false, true].map((rows) => this.arrange(rows));
      if (area[0] > area[1]) this.arrange(false);
    } else this.arrange(false);
    this.arranging = false;
    this.draw();
  },
  arrange(rows) {
    document.body.classList.toggle("rows", rows);
    this.panels.forEach((p) => { p.wordsHeight = 0; p.wordsEl.style.minHeight = ""; });
    const stacked = this.compare && !rows, count = this.panels.length;
    this.panels.forEach((p) => p.size(120, 120, stacked));  // shrink, so the page measures
    this.draw();  // captions first: their height decides the room left
    const width = $("panels").clientWidth / (stacked ? count : 1) - (stacked ? 16 : 0);
    // the room left under the shrunk canvases, shared by the panels above one another
    const bottom = Math.max(...this.panels.map((p) => p.el.getBoundingClientRect().bottom));
    const extra = (window.innerHeight - 12 - bottom) / (stacked ? 1 : count);
    return this.panels.reduce((sum, p) => sum + p.size(width, p.views.clientHeight + extra, stacked), 0);
  },
};

function legend() {
  const any = (f) => player.traces.some(f);
  const solution = any((t) => t.tree) ? "solution (kept green), and the tree nodes above it" : "solution (kept green)";
  const items = [["queen", style.queen, "circle"], [solution, style.solution, "circle"]];
  if (data.givens.length) items.push(["given queen", style.given, "ring"]);
  if (data.blocked.length) items.push(["blocked cell", style.blocked, "square"]);
  if (any((t) => t.steps.some((s) => s.kind === "reject"))) items.push(["cell tested and refused, line from its attacker", style.attacked, "square"]);
  if (any((t) => t.inference || t.steps.some((s) => s.free))) items.push(["column still possible (domain)", style.domain, "square"]);
  if (any((t) => t.inference)) items.push(["removed by this step's forward checking", style.attacked, "cross"]);
  if (any((t) => t.steps.some((s) => s.revisions && s.revisions.length))) {
    items.push(["removed by AC-3 (A: its revisions)", style.path, "cross"]);
  }
  if (any((t) => t.local)) {
    items.push(["queen under attack", style.attacked, "circle"], ["rows just moved; chart: a plateau move", style.moved, "square"]);
    items.push(["chart: attacking pairs (dashed: a restart)", style.path, "square"]);
  }
  if (any((t) => t.tree)) {
    items.push(["tree: current path", style.path, "circle"], ["explored", style.explored, "circle"],
      ["failure", style.attacked, "circle"], ["folded subtree", style.explored, "triangle"]);
    if (any((t) => t.tree && t.tree.rowsVary)) items.push(["r5 under a node: the row MRV fills next", "#222", "text"]);
  }
  $("legend").innerHTML = items.map(([text, colour, shape]) => `<span class="item">` +
    (shape === "text" ? "" : `<span class="swatch ${shape}" style="--c:${colour}"></span>`) + `${text}</span>`).join("");
}

function keys(e) {
  if (e.target.tagName === "INPUT" && e.target.type !== "range") return;
  const big = e.shiftKey ? 10 : 1;
  const act = {
    ArrowRight: () => player.step(big), ArrowDown: () => player.step(big), PageDown: () => player.step(big),
    ArrowLeft: () => player.step(-big), ArrowUp: () => player.step(-big), PageUp: () => player.step(-big),
    " ": () => player.toggle(), Home: () => { player.pause(); player.go(0); },
    End: () => { player.pause(); player.go(player.length); },
    s: () => player.jump("solution", 1), S: () => player.jump("solution", -1),
    f: () => player.jump("failure", 1), F: () => player.jump("failure", -1),
    "[": () => { $("speed").value = Number($("speed").value) - 10; $("speed").oninput(); },
    "]": () => { $("speed").value = Number($("speed").value) + 10; $("speed").oninput(); },
    c: () => { player.panels.forEach((p) => p.trace.tree && p.trace.tree.collapseFailed(player.k)); player.draw(); },
    "0": () => { player.panels.forEach((p) => p.fit()); player.draw(); },
    "+": () => { player.panels.forEach((p) => p.zoom(1.5, p.sideCanvas.cssWidth / 2)); player.draw(); },
    "-": () => { player.panels.forEach((p) => p.zoom(1 / 1.5, p.sideCanvas.cssWidth / 2)); player.draw(); },
    "?": () => { $("help").hidden = !$("help").hidden; },
    ">": () => player.setScale(player.scale + 0.25), "<": () => player.setScale(player.scale - 0.25),
    a: () => player.panels.forEach((p) => { p.revisionsEl.open = !p.revisionsEl.open; }),
  }[e.key];
  if (act) { e.preventDefault(); act(); }
}

player.panels = player.traces.map((t, i) => new Panel(t, i, $("panels")));
document.body.classList.toggle("compare", player.panels.length > 1);
$("scrub").max = String(player.length);
// the status as wide as its longest, so that stepping never wraps the controls
$("status").textContent = `step ${player.length} of ${player.length}`;
$("status").style.minWidth = `${$("status").offsetWidth / parseFloat(getComputedStyle($("status")).fontSize)}em`;
$("scrub").oninput = () => { player.pause(); player.go(Number($("scrub").value)); };
$("home").onclick = () => { player.pause(); player.go(0); };
$("back").onclick = () => player.step(-1);
$("play").onclick = () => player.toggle();
$("step").onclick = () => player.step(1);
$("end").onclick = () => { player.pause(); player.go(player.length); };
$("next-solution").onclick = () => player.jump("solution", 1);
$("next-failure").onclick = () => player.jump("failure", 1);
// local search has no failure to jump to: only its solution
$("next-failure").hidden = !player.traces.some((t) => t.tree);
$("help-button").onclick = () => { $("help").hidden = !$("help").hidden; };
$("speed").oninput = () => { $("rate").textContent = `${player.rate()} steps/s`; if (player.timer !== null) player.play(); };
$("speed").oninput();
document.addEventListener("keydown", keys);
window.addEventListener("resize", () => player.layout());
legend();
player.setScale(player.scale);
window.player = player;
